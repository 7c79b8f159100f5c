import { Injectable } from '@nestjs/common';
import type { StepContext, StepHandler, StepOutcome } from './step-handler.js';

@Injectable()
export class SetStatusStep implements StepHandler {
  readonly type = 'set_status';

  async execute(arg: unknown, { version }: StepContext): Promise<StepOutcome> {
    return { kind: 'move', apply: (subject) => subject.moveTo(arg as string, version, { kind: 'automation' }) };
  }
}

import { Injectable } from '@nestjs/common';
import { render } from '../../domain/templates.js';
import type { StepContext, StepHandler, StepOutcome } from './step-handler.js';

@Injectable()
export class FailStep implements StepHandler {
  readonly type = 'fail';

  async execute(arg: unknown, { scope }: StepContext): Promise<StepOutcome> {
    return { kind: 'fail', error: String(render(arg, scope)) };
  }
}

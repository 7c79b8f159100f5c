import { Injectable } from '@nestjs/common';
import { CLOSED } from '../../../workflows/domain/status-rules.js';
import type { StepContext, StepHandler, StepOutcome } from './step-handler.js';

@Injectable()
export class CloseStep implements StepHandler {
  readonly type = 'close';

  /** Without an outcome, the workflow's default applies (as for a PATCH to Closed). */
  async execute(arg: unknown, { version }: StepContext): Promise<StepOutcome> {
    const { outcome } = (arg ?? {}) as { outcome?: string };
    return { kind: 'move', apply: (subject) => subject.moveTo(CLOSED, version, { kind: 'automation' }, { outcome }) };
  }
}

import { Injectable } from '@nestjs/common';
import type { StepHandler, StepOutcome } from './step-handler.js';

/** Parks the run; a delayed job resumes it, so no worker sleeps. */
@Injectable()
export class WaitStep implements StepHandler {
  readonly type = 'wait';

  async execute(arg: unknown): Promise<StepOutcome> {
    return { kind: 'wait', seconds: (arg as { seconds: number }).seconds };
  }
}

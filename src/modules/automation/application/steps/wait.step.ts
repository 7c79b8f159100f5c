import { StepType, type StepArgumentsCheck, type StepContext, type StepOutcome, type StepTypeDefinition } from '../../../../extension-api/step-types.js';
import { isPlainObject } from '../../../../shared/json/json-text.js';

const MAX_WAIT_SECONDS = 30 * 86_400;

/** Parks the run; a delayed job resumes it, so no worker sleeps. */
@StepType()
export class WaitStep implements StepTypeDefinition<{ seconds: number }> {
  readonly type = 'wait';
  readonly argumentsSchema = {
    type: 'object',
    required: ['seconds'],
    properties: { seconds: { type: 'number', exclusiveMinimum: 0, maximum: MAX_WAIT_SECONDS } },
    additionalProperties: false,
    description: 'Resumes the run after this many seconds (at most 30 days).',
  };

  /** Words the schema's refusals as one problem of the whole step, as definitions always did. */
  check(args: unknown, { report }: StepArgumentsCheck): void {
    if (!isPlainObject(args) || typeof args.seconds !== 'number' || !(args.seconds > 0) || args.seconds > MAX_WAIT_SECONDS || Object.keys(args).length !== 1) {
      report('', `must be {"seconds": N} with 0 < N <= ${MAX_WAIT_SECONDS} (30 days)`);
    }
  }

  async run({ arguments: args }: StepContext<{ seconds: number }>): Promise<StepOutcome> {
    return { kind: 'wait', seconds: args.seconds };
  }
}

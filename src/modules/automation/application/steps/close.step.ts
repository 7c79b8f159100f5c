import { StepType, type StepArgumentsCheck, type StepContext, type StepOutcome, type StepTypeDefinition } from '../../../../extension-api/step-types.js';
import { pointer } from '../../../../shared/json/json-pointer.js';
import { isPlainObject } from '../../../../shared/json/json-text.js';
import { CLOSED } from '../../../workflows/domain/status-rules.js';

interface CloseArguments {
  outcome?: string;
}

@StepType()
export class CloseStep implements StepTypeDefinition<CloseArguments> {
  readonly type = 'close';
  readonly argumentsSchema = {
    type: 'object',
    properties: { outcome: { type: 'string', minLength: 1, pattern: '\\S' } },
    additionalProperties: false,
    description: 'Moves the case to `Closed` with this outcome (the workflow\'s default when omitted).',
  };

  /** Words the schema's refusals as one problem of the whole step, as definitions always did. */
  check(args: unknown, { report }: StepArgumentsCheck): void {
    if (!isPlainObject(args) || Object.keys(args).some((k) => k !== 'outcome')) report('', 'must be {} or {"outcome": "..."}');
    else if (args.outcome !== undefined && (typeof args.outcome !== 'string' || args.outcome.trim() === '')) report(pointer('', 'outcome'), 'must be a non-empty string');
  }

  /** Without an outcome, the workflow's default applies (as for a PATCH to Closed). */
  async run({ arguments: args }: StepContext<CloseArguments | null>): Promise<StepOutcome> {
    return { kind: 'move', status: CLOSED, outcome: args?.outcome };
  }
}

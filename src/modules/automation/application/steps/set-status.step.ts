import { StepType, type StepArgumentsCheck, type StepContext, type StepOutcome, type StepTypeDefinition } from '../../../../extension-api/step-types.js';
import { ERROR } from '../../../workflows/domain/status-rules.js';

@StepType()
export class SetStatusStep implements StepTypeDefinition<string> {
  readonly type = 'set_status';
  readonly argumentsSchema = { type: 'string', not: { const: 'Error' }, description: 'Moves the case to this declared status; that status\'s run starts.' };

  check(status: string, { report, statuses }: StepArgumentsCheck): void {
    if (typeof status !== 'string') report('', 'must be a status name');
    else if (status === ERROR) report('', 'only the engine moves a case to "Error"; use a fail step');
    else if (!statuses.has(status)) report('', `status "${status}" is not declared`);
  }

  async run({ arguments: status }: StepContext<string>): Promise<StepOutcome> {
    return { kind: 'move', status };
  }
}

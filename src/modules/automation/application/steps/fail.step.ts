import { StepType, type StepContext, type StepOutcome, type StepTypeDefinition } from '../../../../extension-api/step-types.js';

@StepType()
export class FailStep implements StepTypeDefinition<string> {
  readonly type = 'fail';
  readonly argumentsSchema = { type: 'string', minLength: 1, pattern: '\\S', description: 'Fails the run on purpose with this message: the case is parked in `Error`.' };

  async run(context: StepContext<string>): Promise<StepOutcome> {
    return { kind: 'fail', error: String(context.render(context.arguments)) };
  }
}

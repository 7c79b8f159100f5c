import { StepType, type StepContext, type StepOutcome, type StepTypeDefinition } from '../../../../extension-api/step-types.js';

@StepType()
export class SetAttributesStep implements StepTypeDefinition<Record<string, unknown>> {
  readonly type = 'set_attributes';
  readonly argumentsSchema = { type: 'object', minProperties: 1, description: 'Merged into the case\'s attributes (validated against the schema; a violation fails the run, and so does a number, possibly from a template, that the attributes\' number rule refuses, or attributes that would take more than the 1,048,576 bytes a case keeps). Strings may hold `{{ path }}` templates (not `{{ secrets.NAME }}`).' };

  async run(context: StepContext<Record<string, unknown>>): Promise<StepOutcome> {
    return { kind: 'change', attributes: context.render(context.arguments) as Record<string, unknown> };
  }
}

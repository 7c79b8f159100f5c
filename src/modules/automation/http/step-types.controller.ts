import { RequiresRole } from '../../../shared/http/route-credentials.js';
import { Controller, Get } from '@nestjs/common';
import { ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiEndpoint } from '../../../shared/http/api-endpoint.decorator.js';
import { object, wrapped } from '../../../shared/http/openapi-schema.js';
import { StepTypeRegistry } from '../../extensions/step-type.registry.js';

const STEP_TYPE = object({
  type: { type: 'string', description: 'The step\'s key in a definition: `{"<type>": <arguments>}`.' },
  external: { type: 'boolean', description: 'Whether the step talks to the outside world (it runs outside any transaction, and again after a crash).' },
  arguments_schema: { type: 'object', description: 'The JSON Schema of the step\'s arguments, which a definition\'s steps of this type must match.' },
});

/** The step types the service runs, built-in and extensions' alike: what the dashboard's builder offers. */
@Controller('api/admin/v1/step_types')
@RequiresRole('editor')
@ApiTags('Workflows')
@ApiSecurity('adminToken')
export class StepTypesController {
  constructor(private readonly stepTypes: StepTypeRegistry) {}

  @Get()
  @ApiEndpoint({
    operationId: 'listStepTypes',
    summary: 'List step types',
    description: 'Every step type a workflow definition may use (besides `if`), with the JSON Schema of its arguments: the built-in ones and those of the extensions the service runs with.',
    success: { status: 200, description: 'The step types.', schema: wrapped('step_types', { type: 'array', items: STEP_TYPE }) },
  })
  list() {
    return { step_types: this.stepTypes.all().map((t) => ({ type: t.type, external: t.external === true, arguments_schema: t.argumentsSchema })) };
  }
}

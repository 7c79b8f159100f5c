import { Controller, Get } from '@nestjs/common';
import { ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiEndpoint } from '../../../shared/http/api-endpoint.decorator.js';
import { listOf } from '../../../shared/http/openapi-schema.js';
import { RequiresRole } from '../../../shared/http/route-credentials.js';
import { roleAllows } from '../../../shared/http/roles.js';
import { type Principal as Caller, roleOf } from '../../tokens/domain/principal.js';
import { Principal } from '../../tokens/http/principal.decorator.js';
import { WorkflowDraftsService } from '../application/workflow-drafts.service.js';

/**
 * A viewer reads cases but not workflows' definitions (people.md): this names the workflows
 * its cases belong to and lists their statuses, for the case list's filters. An agent, who
 * changes cases' attributes (casework.md, section 1), also reads the attribute declarations.
 */
@Controller('api/admin/v1/workflow_names')
@RequiresRole('viewer')
@ApiTags('Workflows')
@ApiSecurity('adminToken')
export class WorkflowNamesController {
  constructor(private readonly drafts: WorkflowDraftsService) {}

  @Get()
  @ApiEndpoint({
    operationId: 'listWorkflowNames',
    summary: 'List workflow names',
    description: 'Each workflow\'s id, name and statuses, oldest first, without its definition; for a caller of role `agent` or stronger, with its attribute declarations too (`attributes`, as the definition declares them), for working cases.',
    success: { status: 200, description: 'The workflows.', schema: listOf('workflows', 'WorkflowName') },
  })
  async list(@Principal() caller: Caller) {
    const workflows = await this.drafts.list(caller.organizationId);
    const worksCases = roleAllows(roleOf(caller) ?? 'viewer', 'agent');
    return { workflows: workflows.map(({ id, name, statuses, attributes }) => ({ id, name, statuses, ...(worksCases ? { attributes } : {}) })) };
  }
}

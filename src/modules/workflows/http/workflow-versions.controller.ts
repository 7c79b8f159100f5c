import { RequiresRole } from '../../../shared/http/route-credentials.js';
import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiEndpoint, BODY_IGNORED } from '../../../shared/http/api-endpoint.decorator.js';
import { IdParamPipe } from '../../../shared/http/id-param.pipe.js';
import { listOf, schemaRef, wrapped } from '../../../shared/http/openapi-schema.js';
import type { ChangeAuthor as Author } from '../../audit/domain/audit-entry.js';
import { ChangeAuthor } from '../../audit/http/change-author.decorator.js';
import type { Principal as Caller } from '../../tokens/domain/principal.js';
import { Principal } from '../../tokens/http/principal.decorator.js';
import { WorkflowVersionsService } from '../application/workflow-versions.service.js';

const WorkflowId = () => Param('workflowId', new IdParamPipe('workflow'));
/** Versions are counted in a Postgres integer. */
const Version = () => Param('version', new IdParamPipe('version', 2 ** 31 - 1));
const VERSION_NOT_FOUND = 'The workflow does not exist, belongs to another organization, or was never published as that version.';

@Controller('api/admin/v1/workflows/:workflowId/versions')
@RequiresRole('editor')
@ApiTags('Workflows')
@ApiSecurity('adminToken')
export class WorkflowVersionsController {
  constructor(private readonly versions: WorkflowVersionsService) {}

  @Get()
  @ApiEndpoint({
    operationId: 'listWorkflowVersions',
    summary: 'List a workflow\'s versions',
    description: 'Every version the workflow was published as, newest first, with when and by whom (a token\'s name where a token published it; null for versions published before this was recorded). Definitions are read one version at a time.',
    success: { status: 200, description: 'The versions.', schema: listOf('versions', 'WorkflowVersionSummary') },
    errors: { 404: 'The workflow does not exist or belongs to another organization.' },
  })
  async list(@Principal() caller: Caller, @WorkflowId() workflowId: number) {
    return { versions: await this.versions.list(caller.organizationId, workflowId) };
  }

  @Get(':version')
  @ApiEndpoint({
    operationId: 'getWorkflowVersion',
    summary: 'Get a workflow version',
    description: 'A published version with its definition, exactly as it was published. Cases keep running on the version they started with.',
    success: { status: 200, description: 'The version.', schema: wrapped('version', schemaRef('WorkflowVersion')) },
    errors: { 404: VERSION_NOT_FOUND },
  })
  async get(@Principal() caller: Caller, @WorkflowId() workflowId: number, @Version() version: number) {
    return { version: await this.versions.get(caller.organizationId, workflowId, version) };
  }

  @Post(':version/restore')
  @HttpCode(200)
  @ApiEndpoint({
    operationId: 'restoreWorkflowVersion',
    summary: 'Restore a version into the draft',
    description: `The draft becomes that version's definition; nothing is published. The definition is checked by today's rules like any draft, so a version published under older rules can be refused with \`workflow_definition_invalid\`. ${BODY_IGNORED}`,
    success: { status: 200, description: 'The workflow with its restored draft.', schema: wrapped('workflow', schemaRef('Workflow')) },
    errors: { 404: VERSION_NOT_FOUND, 422: 'The version\'s definition does not pass today\'s rules (`workflow_definition_invalid` with every problem); the draft is unchanged.' },
  })
  async restore(@Principal() caller: Caller, @ChangeAuthor() by: Author, @WorkflowId() workflowId: number, @Version() version: number) {
    return { workflow: await this.versions.restore(by, caller.organizationId, workflowId, version) };
  }
}

import { RequiresRole } from '../../../shared/http/route-credentials.js';
import { Body, Controller, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiBody, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiEndpoint, BODY_IGNORED, CHANGE_NOT_SAVED } from '../../../shared/http/api-endpoint.decorator.js';
import { IdParamPipe } from '../../../shared/http/id-param.pipe.js';
import { listOf, schemaRef, wrapped } from '../../../shared/http/openapi-schema.js';
import type { ChangeAuthor as Author } from '../../audit/domain/audit-entry.js';
import { ChangeAuthor } from '../../audit/http/change-author.decorator.js';
import type { Principal as Caller } from '../../tokens/domain/principal.js';
import { Principal } from '../../tokens/http/principal.decorator.js';
import { WebhookUrlsService } from '../application/webhook-urls.service.js';
import { WorkflowDraftsService } from '../application/workflow-drafts.service.js';
import { WorkflowPublishingService } from '../application/workflow-publishing.service.js';

const WorkflowId = () => Param('workflowId', new IdParamPipe('workflow'));
const workflowAnswer = (status: 200 | 201, description: string) => ({ status, description, schema: wrapped('workflow', schemaRef('Workflow')) });
const webhookAnswer = (status: 200 | 201) => ({ status, description: 'The webhook URL and token.', schema: wrapped('webhook', schemaRef('Webhook')) });
/** The body is a whole definition, checked by the domain's rules rather than by a request class. */
const DefinitionBody = () => ApiBody({ schema: schemaRef('WorkflowDefinition'), required: true });
const WORKFLOW_NOT_FOUND = 'The workflow does not exist or belongs to another organization.';
const DEFINITION_REFUSED = 'Nothing was stored: `workflow_definition_invalid` with every problem in `validation_errors` (unknown keys, a bad attribute type, a default status declared again, duplicate statuses, an automation on an undeclared status or on `Error`, a malformed step, a number the attribute number rule refuses, ...); or a body that is not a valid JSON object, or holds text that cannot be stored.';

@Controller('api/admin/v1/workflows')
@RequiresRole('editor')
@ApiTags('Workflows')
@ApiSecurity('adminToken')
export class WorkflowsController {
  constructor(
    private readonly drafts: WorkflowDraftsService,
    private readonly publishing: WorkflowPublishingService,
    private readonly webhooks: WebhookUrlsService,
  ) {}

  @Post()
  @ApiEndpoint({
    operationId: 'createWorkflow',
    summary: 'Create a workflow',
    description: 'Stores the definition as the draft of a new, unpublished workflow. Defaults are filled in (`sensitive_data` false, no custom statuses, `default_outcome` null, no attributes, no automations).',
    success: workflowAnswer(201, 'The new workflow.'),
    errors: { 422: `${DEFINITION_REFUSED} Or the organization already has as many workflows as \`MAX_WORKFLOWS_PER_ORGANIZATION\` allows (\`cap\` and \`limit\` name it).` },
  })
  @DefinitionBody()
  async create(@Principal() caller: Caller, @ChangeAuthor() by: Author, @Body() definition: unknown) {
    return { workflow: await this.drafts.create(by, caller.organizationId, definition) };
  }

  @Get()
  @ApiEndpoint({
    operationId: 'listWorkflows',
    summary: 'List workflows',
    description: 'The organization\'s workflows, oldest first, each with its draft definition.',
    success: { status: 200, description: 'The workflows.', schema: listOf('workflows', 'Workflow') },
  })
  async list(@Principal() caller: Caller) {
    return { workflows: await this.drafts.list(caller.organizationId) };
  }

  @Get(':workflowId')
  @ApiEndpoint({
    operationId: 'getWorkflow',
    summary: 'Get a workflow',
    description: 'The draft definition with every status (defaults included), and whether and at which version it is published.',
    success: workflowAnswer(200, 'The workflow.'),
    errors: { 404: WORKFLOW_NOT_FOUND },
  })
  async get(@Principal() caller: Caller, @WorkflowId() id: number) {
    return { workflow: await this.drafts.get(caller.organizationId, id) };
  }

  @Put(':workflowId')
  @ApiEndpoint({
    operationId: 'replaceWorkflowDraft',
    summary: 'Replace a workflow\'s draft',
    description: 'Replaces the whole draft definition. Published versions, and the cases running on them, are not affected until the next publish.',
    success: workflowAnswer(200, 'The workflow with its new draft.'),
    errors: { 404: WORKFLOW_NOT_FOUND, 422: DEFINITION_REFUSED },
  })
  @DefinitionBody()
  async replaceDraft(@Principal() caller: Caller, @ChangeAuthor() by: Author, @WorkflowId() id: number, @Body() definition: unknown) {
    return { workflow: await this.drafts.replaceDraft(by, caller.organizationId, id, definition) };
  }

  @Post(':workflowId/publish')
  @RequiresRole('admin')
  @HttpCode(200)
  @ApiEndpoint({
    operationId: 'publishWorkflow',
    summary: 'Publish a workflow',
    description: `Freezes the draft as the next version (\`version\` + 1) and sets \`published\`; new cases use it from the next request on. A draft that is the latest version as it was published (\`draft_changed\` false) makes no new version: the answer is the same version, published again if it was unpublished, so a retried publish changes nothing. ${BODY_IGNORED}`,
    success: workflowAnswer(200, 'The published workflow.'),
    errors: { 404: WORKFLOW_NOT_FOUND, 503: CHANGE_NOT_SAVED },
  })
  async publish(@Principal() caller: Caller, @ChangeAuthor() by: Author, @WorkflowId() id: number) {
    return { workflow: await this.publishing.publish(by, caller.organizationId, id) };
  }

  @Post(':workflowId/unpublish')
  @RequiresRole('admin')
  @HttpCode(200)
  @ApiEndpoint({
    operationId: 'unpublishWorkflow',
    summary: 'Unpublish a workflow',
    description: `Stops intake at once (within 1 s on the other instances): its webhook URL answers 401 and the cases API refuses new cases (422). Existing cases carry on. ${BODY_IGNORED}`,
    success: workflowAnswer(200, 'The unpublished workflow.'),
    errors: { 404: WORKFLOW_NOT_FOUND, 503: CHANGE_NOT_SAVED },
  })
  async unpublish(@Principal() caller: Caller, @ChangeAuthor() by: Author, @WorkflowId() id: number) {
    return { workflow: await this.publishing.unpublish(by, caller.organizationId, id) };
  }

  @Post(':workflowId/webhook')
  @RequiresRole('admin')
  @ApiEndpoint({
    operationId: 'generateWebhook',
    summary: 'Generate the workflow\'s webhook URL',
    description: `Generates the workflow's webhook token once: calling again answers 201 with the same URL. The token belongs to the workflow, not to a version, and is stored encrypted. ${BODY_IGNORED}`,
    success: webhookAnswer(201),
    errors: { 404: WORKFLOW_NOT_FOUND, 422: 'The workflow is not published, or its case source is not `direct`.', 503: CHANGE_NOT_SAVED },
  })
  async generateWebhook(@Principal() caller: Caller, @ChangeAuthor() by: Author, @WorkflowId() id: number) {
    return { webhook: await this.webhooks.generate(by, caller.organizationId, id) };
  }

  @Get(':workflowId/webhook')
  @RequiresRole('admin')
  @ApiEndpoint({
    operationId: 'getWebhook',
    summary: 'Get the workflow\'s webhook URL',
    description: 'The webhook URL generated earlier (as rotated by the operator, if it was).',
    success: webhookAnswer(200),
    errors: { 404: 'The workflow does not exist, belongs to another organization, or has no webhook URL yet.' },
  })
  async getWebhook(@Principal() caller: Caller, @WorkflowId() id: number) {
    return { webhook: await this.webhooks.get(caller.organizationId, id) };
  }
}

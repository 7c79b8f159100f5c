import { Body, Controller, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { IdParamPipe } from '../../../shared/http/id-param.pipe.js';
import { RequiresToken } from '../../tokens/bearer-token.guard.js';
import type { Principal as Caller } from '../../tokens/principal.js';
import { Principal } from '../../tokens/principal.decorator.js';
import { WebhookUrlsService } from '../application/webhook-urls.service.js';
import { WorkflowDraftsService } from '../application/workflow-drafts.service.js';
import { WorkflowPublishingService } from '../application/workflow-publishing.service.js';

const WorkflowId = () => Param('workflowId', new IdParamPipe('workflow'));

@Controller('api/admin/v1/workflows')
@RequiresToken('admin')
export class WorkflowsController {
  constructor(
    private readonly drafts: WorkflowDraftsService,
    private readonly publishing: WorkflowPublishingService,
    private readonly webhooks: WebhookUrlsService,
  ) {}

  @Post()
  async create(@Principal() caller: Caller, @Body() definition: unknown) {
    return { workflow: await this.drafts.create(caller.organizationId, definition) };
  }

  @Get()
  async list(@Principal() caller: Caller) {
    return { workflows: await this.drafts.list(caller.organizationId) };
  }

  @Get(':workflowId')
  async get(@Principal() caller: Caller, @WorkflowId() id: number) {
    return { workflow: await this.drafts.get(caller.organizationId, id) };
  }

  @Put(':workflowId')
  async replaceDraft(@Principal() caller: Caller, @WorkflowId() id: number, @Body() definition: unknown) {
    return { workflow: await this.drafts.replaceDraft(caller.organizationId, id, definition) };
  }

  @Post(':workflowId/publish')
  @HttpCode(200)
  async publish(@Principal() caller: Caller, @WorkflowId() id: number) {
    return { workflow: await this.publishing.publish(caller.organizationId, id) };
  }

  @Post(':workflowId/unpublish')
  @HttpCode(200)
  async unpublish(@Principal() caller: Caller, @WorkflowId() id: number) {
    return { workflow: await this.publishing.unpublish(caller.organizationId, id) };
  }

  @Post(':workflowId/webhook')
  async generateWebhook(@Principal() caller: Caller, @WorkflowId() id: number) {
    return { webhook: await this.webhooks.generate(caller.organizationId, id) };
  }

  @Get(':workflowId/webhook')
  async getWebhook(@Principal() caller: Caller, @WorkflowId() id: number) {
    return { webhook: await this.webhooks.get(caller.organizationId, id) };
  }
}

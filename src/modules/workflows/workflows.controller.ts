import { Body, Controller, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { IdParamPipe } from '../../shared/http/id-param.pipe.js';
import { RequiresToken } from '../tokens/bearer-token.guard.js';
import type { Principal as Caller } from '../tokens/principal.js';
import { Principal } from '../tokens/principal.decorator.js';
import { WorkflowsService } from './workflows.service.js';

const WorkflowId = () => Param('workflowId', new IdParamPipe('workflow'));

@Controller('api/admin/v1/workflows')
@RequiresToken('admin')
export class WorkflowsController {
  constructor(private readonly workflows: WorkflowsService) {}

  @Post()
  async create(@Principal() caller: Caller, @Body() definition: unknown) {
    return { workflow: await this.workflows.create(caller.organizationId, definition) };
  }

  @Get()
  async list(@Principal() caller: Caller) {
    return { workflows: await this.workflows.list(caller.organizationId) };
  }

  @Get(':workflowId')
  async get(@Principal() caller: Caller, @WorkflowId() id: number) {
    return { workflow: await this.workflows.get(caller.organizationId, id) };
  }

  @Put(':workflowId')
  async replaceDraft(@Principal() caller: Caller, @WorkflowId() id: number, @Body() definition: unknown) {
    return { workflow: await this.workflows.replaceDraft(caller.organizationId, id, definition) };
  }

  @Post(':workflowId/publish')
  @HttpCode(200)
  async publish(@Principal() caller: Caller, @WorkflowId() id: number) {
    return { workflow: await this.workflows.publish(caller.organizationId, id) };
  }

  @Post(':workflowId/unpublish')
  @HttpCode(200)
  async unpublish(@Principal() caller: Caller, @WorkflowId() id: number) {
    return { workflow: await this.workflows.unpublish(caller.organizationId, id) };
  }

  @Post(':workflowId/webhook')
  async generateWebhook(@Principal() caller: Caller, @WorkflowId() id: number) {
    return { webhook: await this.workflows.generateWebhook(caller.organizationId, id) };
  }

  @Get(':workflowId/webhook')
  async getWebhook(@Principal() caller: Caller, @WorkflowId() id: number) {
    return { webhook: await this.workflows.getWebhook(caller.organizationId, id) };
  }
}

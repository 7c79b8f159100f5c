import { Controller, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { IdParamPipe } from '../../shared/http/id-param.pipe.js';
import { OperatorGuard } from '../tokens/operator.guard.js';
import { WorkflowsService } from './workflows.service.js';

@Controller('api/operator/v1/workflows')
@UseGuards(OperatorGuard)
export class OperatorWebhooksController {
  constructor(private readonly workflows: WorkflowsService) {}

  @Post(':workflowId/webhook/rotate')
  @HttpCode(200)
  async rotate(@Param('workflowId', new IdParamPipe('workflow')) id: number) {
    return { webhook: await this.workflows.rotateWebhook(id) };
  }
}

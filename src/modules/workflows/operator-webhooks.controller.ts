import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { IdParamPipe } from '../../shared/http/id-param.pipe.js';
import { RequiresOperatorToken } from '../tokens/operator.guard.js';
import { WorkflowsService } from './workflows.service.js';

@Controller('api/operator/v1/workflows')
@RequiresOperatorToken()
export class OperatorWebhooksController {
  constructor(private readonly workflows: WorkflowsService) {}

  @Post(':workflowId/webhook/rotate')
  @HttpCode(200)
  async rotate(@Param('workflowId', new IdParamPipe('workflow')) id: number) {
    return { webhook: await this.workflows.rotateWebhook(id) };
  }
}

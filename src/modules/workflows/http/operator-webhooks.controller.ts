import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { IdParamPipe } from '../../../shared/http/id-param.pipe.js';
import { RequiresOperatorToken } from '../../tokens/operator.guard.js';
import { WebhookUrlsService } from '../application/webhook-urls.service.js';

@Controller('api/operator/v1/workflows')
@RequiresOperatorToken()
export class OperatorWebhooksController {
  constructor(private readonly webhooks: WebhookUrlsService) {}

  @Post(':workflowId/webhook/rotate')
  @HttpCode(200)
  async rotate(@Param('workflowId', new IdParamPipe('workflow')) id: number) {
    return { webhook: await this.webhooks.rotate(id) };
  }
}

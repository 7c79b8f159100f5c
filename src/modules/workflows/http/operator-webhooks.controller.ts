import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiEndpoint, BODY_IGNORED, CHANGE_NOT_SAVED } from '../../../shared/http/api-endpoint.decorator.js';
import { IdParamPipe } from '../../../shared/http/id-param.pipe.js';
import { schemaRef, wrapped } from '../../../shared/http/openapi-schema.js';
import type { ChangeAuthor as Author } from '../../audit/domain/audit-entry.js';
import { ChangeAuthor } from '../../audit/http/change-author.decorator.js';
import { RequiresOperatorToken } from '../../tokens/http/operator-token.check.js';
import { WebhookUrlsService } from '../application/webhook-urls.service.js';

@Controller('api/operator/v1/workflows')
@RequiresOperatorToken()
@ApiTags('Operator')
@ApiSecurity('operatorToken')
export class OperatorWebhooksController {
  constructor(private readonly webhooks: WebhookUrlsService) {}

  @Post(':workflowId/webhook/rotate')
  @HttpCode(200)
  @ApiEndpoint({
    operationId: 'rotateWebhook',
    summary: 'Rotate a workflow\'s webhook token',
    description: `Replaces the webhook token of any organization's workflow: the old URL answers 401 at once on this instance and within 1 s on every other one. ${BODY_IGNORED}`,
    success: { status: 200, description: 'The new webhook URL and token.', schema: wrapped('webhook', schemaRef('Webhook')) },
    errors: { 404: 'The operator API is disabled (no `OPERATOR_TOKEN`), or the workflow does not exist or has no webhook URL yet.', 503: CHANGE_NOT_SAVED },
  })
  async rotate(@ChangeAuthor() by: Author, @Param('workflowId', new IdParamPipe('workflow')) id: number) {
    return { webhook: await this.webhooks.rotate(by, id) };
  }
}

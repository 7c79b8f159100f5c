import { Controller, Header, HttpCode, Post, Req } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';
import { JSON_CONTENT_TYPE } from '../cases/http/case.response.js';
import { WebhookIntakeService } from './webhook-intake.service.js';
import { RequiresWebhookToken } from './webhook-token.guard.js';

@Controller('api/external/v1/workflows/:workflowId/case_webhooks')
@RequiresWebhookToken()
export class WebhookIntakeController {
  constructor(private readonly intake: WebhookIntakeService) {}

  /** Senders get Content-Type wrong, so the body is read as JSON whatever it says. */
  @Post()
  @HttpCode(201)
  @Header('content-type', JSON_CONTENT_TYPE)
  @RouteConfig({ anyContentType: true })
  async receive(@Req() request: FastifyRequest) {
    const { organizationId, version } = request.webhookWorkflow!;
    const id = await this.intake.receive(organizationId, version, request.body, request.jsonText);
    return `{"case":{"id":${id},"source_type":"Webhook"}}`;
  }
}

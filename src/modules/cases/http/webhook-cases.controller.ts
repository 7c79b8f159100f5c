import { Controller, Header, HttpCode, Post, Req } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';
import { CreateCaseService } from '../application/create-case.service.js';
import { JSON_CONTENT_TYPE } from './case.response.js';
import { webhookCaseCommand } from './case-commands.js';
import { RequiresWebhookToken } from './webhook-token.guard.js';

@Controller('api/external/v1/workflows/:workflowId/case_webhooks')
@RequiresWebhookToken()
export class WebhookCasesController {
  constructor(private readonly createCase: CreateCaseService) {}

  /** Senders get Content-Type wrong, so the body is read as JSON whatever it says. */
  @Post()
  @HttpCode(201)
  @Header('content-type', JSON_CONTENT_TYPE)
  @RouteConfig({ anyContentType: true })
  async receive(@Req() request: FastifyRequest) {
    const { id } = await this.createCase.execute(webhookCaseCommand(request.webhookWorkflow!, request.body));
    return `{"case":{"id":${id},"source_type":"Webhook"}}`;
  }
}

import { Controller, Post } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiBody, ApiConsumes, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiEndpoint } from '../../../shared/http/api-endpoint.decorator.js';
import { DirectRoute } from '../../../shared/http/direct-routes.js';
import { NUMBER_RULE, object, schemaRef, wrapped } from '../../../shared/http/openapi-schema.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CreateCaseService } from '../application/create-case.service.js';
import { JSON_CONTENT_TYPE } from './case.response.js';
import { webhookCaseCommand } from './case-commands.js';
import { RequiresWebhookToken, webhookTarget } from './webhook-token.check.js';

@Controller('api/external/v1/workflows/:workflowId/case_webhooks')
@RequiresWebhookToken()
@ApiTags('Incoming webhook')
@ApiSecurity('webhookToken')
export class WebhookCasesController {
  constructor(private readonly createCase: CreateCaseService) {}

  /**
   * Senders get Content-Type wrong, so the body is read as JSON whatever it says. The hottest
   * route of the service, so Fastify calls it straight (DirectRoute): no Nest guard, pipe or
   * parameter decorator runs, and the handler reads its workflow and sets its header itself.
   */
  @Post()
  @DirectRoute()
  @RouteConfig({ anyContentType: true })
  @ApiConsumes('application/json', '*/*')
  @ApiBody({ schema: { type: 'object', maxProperties: 1000, description: `Any JSON object: its top-level keys are the case attributes. ${NUMBER_RULE}` }, required: true })
  @ApiEndpoint({
    operationId: 'receiveWebhook',
    summary: 'Create a case from an incoming webhook',
    description: [
      'The URL is the credential: the `token` query parameter must be the webhook token of the workflow in the path, and that workflow must be published with case source `direct`. No `Authorization` header is needed; any header sent for authorization is ignored.',
      'The body is read as JSON whatever its `Content-Type` says (senders get it wrong), so this endpoint never answers 415. It must be a JSON object of at most 1 MB (1,048,576 bytes) and at most 1,000 top-level keys (413 otherwise), nested at most 64 levels. Each top-level key becomes a case attribute of the same name, value kept as sent; undeclared keys are kept, except on workflows with `sensitive_data`, where they are validation errors.',
      'When the workflow requires a signature (putWebhookVerification), the signature headers of its scheme are checked over the exact bytes of the body before it is parsed; a request that fails is a 401, whatever its body.',
      'The case is live (no test mode here), `Open`, with subject `<workflow name> via Webhook - <YYYY-MM-DD HH:MM:SS> UTC`; it exists when the 201 is sent and its run starts afterwards. By default every request creates a new case, retries included.',
      'A workflow whose published version sets `webhook_dedup` (`{"key": "<JSON Pointer>", "window_seconds": N}`) makes one case per delivery key: when the value at `key` in the posted object, a string or an integer compared as its exact JSON text (`"7"` and `7` differ, and so do `"A"` and `"\\u0041"`), equals that of a case this webhook created on the workflow in the last `window_seconds`, the answer is 200 with that case\'s id and `"duplicate": true`, and nothing is created, started, counted or emitted. Concurrent deliveries of one key create one case. A body without a value at `key`, or with another type there (a fraction, a boolean, null, an object, an array), creates a case as usual. The body is checked as for a new case first: a duplicate that fails validation is a 422.',
    ],
    // The guard reads the workflow id, not a @Param of the handler; the document describes it all the same.
    parameters: [{ name: 'workflowId', in: 'path', required: true }],
    success: { status: 201, description: 'The case was created.', schema: wrapped('case', schemaRef('WebhookCaseReceipt')) },
    alsoAnswers: [{
      status: 200,
      description: 'A duplicate delivery (`webhook_dedup`): the case an earlier delivery with the same key created within the window; nothing was created.',
      schema: object({ case: schemaRef('WebhookCaseReceipt'), duplicate: { type: 'boolean', const: true } }),
    }],
    errors: {
      401: 'The workflow id or token is wrong, or the workflow is no longer a published direct workflow (all the same 401, `invalid webhook URL`); or the workflow requires a signature (putWebhookVerification) and the request\'s is missing, malformed, wrong or stale (`signature verification failed`, checked before the body is parsed). No case is created.',
      413: 'Body larger than 1 MB (1,048,576 bytes), or a JSON object with more than 1,000 top-level keys. No case is created.',
      422: 'No case was created: the body is missing, empty, not valid JSON, nested deeper than 64 levels, not a JSON object, or holds text that cannot be stored (U+0000); or `attributes_validation_failed` with `validation_errors`, including a number too long written out (see the body).',
    },
  })
  async receive(request: FastifyRequest, reply: FastifyReply): Promise<string> {
    const { id, replayed } = await this.createCase.execute(webhookCaseCommand(webhookTarget(request), request.body));
    reply.status(replayed ? 200 : 201).header('content-type', JSON_CONTENT_TYPE);
    return replayed ? `{"case":{"id":${id},"source_type":"Webhook"},"duplicate":true}` : `{"case":{"id":${id},"source_type":"Webhook"}}`;
  }
}

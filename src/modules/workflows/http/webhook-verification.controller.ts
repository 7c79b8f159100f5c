import { RequiresRole } from '../../../shared/http/route-credentials.js';
import { Body, Controller, Delete, Get, HttpCode, Param, Put } from '@nestjs/common';
import { ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiEndpoint, BODY_IGNORED, CHANGE_NOT_SAVED } from '../../../shared/http/api-endpoint.decorator.js';
import { IdParamPipe } from '../../../shared/http/id-param.pipe.js';
import { schemaRef, wrapped } from '../../../shared/http/openapi-schema.js';
import type { ChangeAuthor as Author } from '../../audit/domain/audit-entry.js';
import { ChangeAuthor } from '../../audit/http/change-author.decorator.js';
import type { Principal as Caller } from '../../tokens/domain/principal.js';
import { Principal } from '../../tokens/http/principal.decorator.js';
import { SenderSchemeRegistry } from '../application/sender-scheme-registry.js';
import { WebhookVerificationService } from '../application/webhook-verification.service.js';
import { verificationSetting } from '../domain/webhook-verification.js';
import { PutWebhookVerificationRequest } from './put-webhook-verification.request.js';

const WorkflowId = () => Param('workflowId', new IdParamPipe('workflow'));
const verificationAnswer = { status: 200 as const, description: 'The verification, without its secret.', schema: wrapped('verification', schemaRef('WebhookVerification')) };
const WORKFLOW_NOT_FOUND = 'The workflow does not exist or belongs to another organization.';
const NO_VERIFICATION = 'The workflow does not exist, belongs to another organization, or its webhook requires no signature.';

/** Verified senders (integrations.md §2): the signature a workflow's incoming webhook requires besides its token. */
@Controller('api/admin/v1/workflows/:workflowId/webhook/verification')
@RequiresRole('admin')
@ApiTags('Workflows')
@ApiSecurity('adminToken')
export class WebhookVerificationController {
  constructor(private readonly verifications: WebhookVerificationService, private readonly schemes: SenderSchemeRegistry) {}

  @Put()
  @HttpCode(200)
  @ApiEndpoint({
    operationId: 'putWebhookVerification',
    summary: 'Require a signature on the incoming webhook',
    description: [
      'Sets (or replaces) how the workflow\'s webhook senders sign: from then on a webhook POST with a valid token is also checked against the signature headers of `scheme`, over the exact bytes of the body, before it is parsed. A missing, malformed, wrong or stale signature is a 401 `signature verification failed`: no case, no run, nothing metered. Any one of several signatures passing is enough.',
      'Schemes: `github` (`X-Hub-Signature-256: sha256=<hex>` of HMAC-SHA256 over the body); `stripe` (`Stripe-Signature: t=<unix>,v1=<hex>[,v1=...]` over `<t>.<body>`); `slack` (`X-Slack-Request-Timestamp` and `X-Slack-Signature: v0=<hex>` over `v0:<timestamp>:<body>`); `standard_webhooks` (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64> ...` over `<id>.<timestamp>.<body>` with the base64-decoded `whsec_` key); `hmac` (the configured `header`: `prefix` then the HMAC-`algorithm` of the body as `encoding`). Extensions may add schemes of their own (docs/extending.md); their names are accepted here like these.',
      'The verification belongs to the workflow: publishing new versions and rotating the webhook token keep it. A change acts at once on this instance and within 1 s on every other one. The secret is stored encrypted and never shown or logged.',
    ],
    success: verificationAnswer,
    errors: {
      404: WORKFLOW_NOT_FOUND,
      422: 'Nothing was stored: `validation_errors` lists every problem (a scheme that is not registered; a missing, empty or oversized secret; a Standard Webhooks secret that is not `whsec_` + base64; an option the scheme does not take; `hmac` without `header`; a bad option value, such as `tolerance_seconds` outside 1 to 3,600); or a body that is not a valid JSON object.',
      503: CHANGE_NOT_SAVED,
    },
  })
  async put(@Principal() caller: Caller, @ChangeAuthor() by: Author, @WorkflowId() id: number, @Body() body: PutWebhookVerificationRequest) {
    const setting = verificationSetting(body as unknown as Record<string, unknown>, this.schemes.rules);
    return { verification: await this.verifications.put(by, caller.organizationId, id, setting) };
  }

  @Get()
  @RequiresRole('editor')
  @ApiEndpoint({
    operationId: 'getWebhookVerification',
    summary: 'Get the incoming webhook\'s signature requirement',
    description: 'The scheme and its options (defaults filled in); never the secret.',
    success: verificationAnswer,
    errors: { 404: NO_VERIFICATION },
  })
  async get(@Principal() caller: Caller, @WorkflowId() id: number) {
    return { verification: await this.verifications.get(caller.organizationId, id) };
  }

  @Delete()
  @HttpCode(204)
  @ApiEndpoint({
    operationId: 'deleteWebhookVerification',
    summary: 'Stop requiring a signature on the incoming webhook',
    description: `The webhook takes its token alone again, at once on this instance and within 1 s on every other one. ${BODY_IGNORED}`,
    success: { status: 204, description: 'Deleted; no body.' },
    errors: { 404: NO_VERIFICATION, 503: CHANGE_NOT_SAVED },
  })
  async delete(@Principal() caller: Caller, @ChangeAuthor() by: Author, @WorkflowId() id: number) {
    await this.verifications.delete(by, caller.organizationId, id);
  }
}

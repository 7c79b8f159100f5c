import { RequiresRole } from '../../../shared/http/route-credentials.js';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiEndpoint, BODY_IGNORED } from '../../../shared/http/api-endpoint.decorator.js';
import { IdParamPipe } from '../../../shared/http/id-param.pipe.js';
import { listOf, object, schemaRef } from '../../../shared/http/openapi-schema.js';
import type { ChangeAuthor as Author } from '../../audit/domain/audit-entry.js';
import { ChangeAuthor } from '../../audit/http/change-author.decorator.js';
import type { Principal as Caller } from '../../tokens/domain/principal.js';
import { Principal } from '../../tokens/http/principal.decorator.js';
import { CreateSubscriptionRequest } from './create-subscription.request.js';
import { ListDeliveriesRequest } from './list-deliveries.request.js';
import { RecoverDeliveriesRequest } from './recover-deliveries.request.js';
import { SubscriptionsService } from '../application/subscriptions.service.js';
import { UpdateSubscriptionRequest } from './update-subscription.request.js';

const SubscriptionId = () => Param('subscriptionId', new IdParamPipe('subscription'));
const DeliveryId = () => Param('deliveryId', new IdParamPipe('delivery'));
const SUBSCRIPTION_NOT_FOUND = 'The subscription does not exist, belongs to another organization, or was deleted.';
const DISABLED = 'The subscription is disabled: enable it first (nothing was sent).';

@Controller('api/admin/v1/subscriptions')
@RequiresRole('admin')
@ApiTags('Event subscriptions')
@ApiSecurity('adminToken')
export class SubscriptionsController {
  constructor(private readonly subscriptions: SubscriptionsService) {}

  @Post()
  @ApiEndpoint({
    operationId: 'createSubscription',
    summary: 'Subscribe to case events',
    description: [
      'Lifecycle events of the organization\'s live cases are POSTed to `url` (test cases never produce events); the request is described under `webhooks` (`caseEvent`). Every move is a `case.status_changed`; entering `Closed` is also a `case.closed`, leaving it a `case.reopened`, being parked in `Error` a `case.errored`.',
      'Deliveries are signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`: HMAC-SHA256 with the `whsec_` secret of this answer, shown this once). A 2xx answer delivers; anything else, a network error or a 10-second timeout is retried with exponential backoff (from 5 seconds by default, 4 times longer each time, at most 6 hours apart) for 26 hours. Events of one case reach a subscription in order. A subscription failing for more than 3 days without one success is disabled (see `enable` and `recover`). Loopback, private, link-local and metadata addresses are refused unless the service allows them.',
    ],
    success: { status: 201, description: 'The subscription and its signing secret.', schema: schemaRef('CreatedSubscription') },
    errors: {
      422: '`url` not an http(s) URL; `events` missing, empty, repeated or unknown; `workflow_ids` empty, repeated, not positive integers, more than 1,000, or naming a workflow outside the organization; an unsupported key; a body that is not a valid JSON object. Or the organization already has as many subscriptions as `MAX_SUBSCRIPTIONS_PER_ORGANIZATION` allows (`cap` and `limit` name it).',
    },
  })
  create(@Principal() caller: Caller, @ChangeAuthor() by: Author, @Body() body: CreateSubscriptionRequest) {
    return this.subscriptions.create(by, caller.organizationId, body);
  }

  @Get()
  @RequiresRole('editor')
  @ApiEndpoint({
    operationId: 'listSubscriptions',
    summary: 'List subscriptions',
    description: 'The organization\'s subscriptions, oldest first, with their health; never a secret. Deleted ones are not listed.',
    success: { status: 200, description: 'The subscriptions.', schema: listOf('subscriptions', 'Subscription') },
  })
  async list(@Principal() caller: Caller) {
    return { subscriptions: await this.subscriptions.list(caller.organizationId) };
  }

  @Delete(':subscriptionId')
  @HttpCode(204)
  @ApiEndpoint({
    operationId: 'deleteSubscription',
    summary: 'Delete a subscription',
    description: `Nothing more is sent to it, pending retries included. ${BODY_IGNORED}`,
    success: { status: 204, description: 'Deleted; no body.' },
    errors: { 404: SUBSCRIPTION_NOT_FOUND },
  })
  async delete(@Principal() caller: Caller, @ChangeAuthor() by: Author, @SubscriptionId() id: number) {
    await this.subscriptions.delete(by, caller.organizationId, id);
  }

  @Patch(':subscriptionId')
  @ApiEndpoint({
    operationId: 'updateSubscription',
    summary: 'Change a subscription',
    description: 'Any of `url`, `events` and `workflow_ids`, validated as when creating; `workflow_ids: null` means every workflow again. Events written from now on follow the change; deliveries already written keep their event and go to the new `url`.',
    success: { status: 200, description: 'The subscription after the change.', schema: object({ subscription: schemaRef('Subscription') }) },
    errors: {
      404: SUBSCRIPTION_NOT_FOUND,
      422: 'Nothing changed: an empty body; `url` null or not an http(s) URL; `events` null, empty, repeated or unknown; `workflow_ids` empty, repeated, not positive integers, more than 1,000, or naming a workflow outside the organization; an unsupported key; a body that is not a valid JSON object.',
    },
  })
  async update(@Principal() caller: Caller, @ChangeAuthor() by: Author, @SubscriptionId() id: number, @Body() body: UpdateSubscriptionRequest) {
    return { subscription: await this.subscriptions.update(by, caller.organizationId, id, body) };
  }

  @Post(':subscriptionId/enable')
  @HttpCode(200)
  @ApiEndpoint({
    operationId: 'enableSubscription',
    summary: 'Enable a disabled subscription',
    description: `Deliveries resume for events from now on; the events it missed while disabled are sent only through \`recover\`. Enabling an active subscription changes nothing. ${BODY_IGNORED}`,
    success: { status: 200, description: 'The subscription, active.', schema: object({ subscription: schemaRef('Subscription') }) },
    errors: { 404: SUBSCRIPTION_NOT_FOUND },
  })
  async enable(@Principal() caller: Caller, @ChangeAuthor() by: Author, @SubscriptionId() id: number) {
    return { subscription: await this.subscriptions.enable(by, caller.organizationId, id) };
  }

  @Post(':subscriptionId/rotate-secret')
  @HttpCode(200)
  @ApiEndpoint({
    operationId: 'rotateSubscriptionSecret',
    summary: 'Rotate the signing secret',
    description: `A new \`whsec_\` secret, shown this once. For 24 hours every delivery carries two \`v1,\` signatures in \`webhook-signature\` (space-separated), one with the new secret and one with the replaced one, so the receiver can switch at its own pace; a second rotation within that day drops the oldest secret. ${BODY_IGNORED}`,
    success: { status: 200, description: 'The new signing secret.', schema: object({ signing_secret: { type: 'string', pattern: '^whsec_' } }) },
    errors: { 404: SUBSCRIPTION_NOT_FOUND },
  })
  rotateSecret(@Principal() caller: Caller, @ChangeAuthor() by: Author, @SubscriptionId() id: number) {
    return this.subscriptions.rotateSecret(by, caller.organizationId, id);
  }

  @Post(':subscriptionId/deliveries/:deliveryId/retry')
  @HttpCode(202)
  @ApiEndpoint({
    operationId: 'retryDelivery',
    summary: 'Send a delivery again',
    description: `The delivery's event is sent once more, with the same \`webhook-id\` and body, by a worker shortly after this answer, and logged as a new attempt. A delivery still being retried is sent now instead of at its next retry. \`deliveryId\` is the \`delivery_id\` of the deliveries log. ${BODY_IGNORED}`,
    success: { status: 202, description: 'Queued; no body.' },
    errors: { 404: `${SUBSCRIPTION_NOT_FOUND} Or the delivery is not one of this subscription's.`, 422: DISABLED },
  })
  async retry(@Principal() caller: Caller, @ChangeAuthor() by: Author, @SubscriptionId() id: number, @DeliveryId() deliveryId: number) {
    await this.subscriptions.retry(by, caller.organizationId, id, deliveryId);
  }

  @Post(':subscriptionId/recover')
  @HttpCode(202)
  @ApiEndpoint({
    operationId: 'recoverDeliveries',
    summary: 'Send again every delivery that failed since a time',
    description: 'Every delivery of this subscription that ended failed at or after `since` (its retries ran out, or it was written while the subscription was disabled) is sent again by the workers, with the same `webhook-id`, each case\'s events in their order, and retried as a new delivery would be.',
    success: { status: 202, description: 'How many deliveries are being sent again.', schema: object({ recovering: { type: 'integer', minimum: 0 } }) },
    errors: { 404: SUBSCRIPTION_NOT_FOUND, 422: `\`since\` missing or not a strict ISO 8601 timestamp; an unsupported key; a body that is not a valid JSON object. ${DISABLED}` },
  })
  async recover(@Principal() caller: Caller, @ChangeAuthor() by: Author, @SubscriptionId() id: number, @Body() body: RecoverDeliveriesRequest) {
    return { recovering: await this.subscriptions.recover(by, caller.organizationId, id, new Date(body.since)) };
  }

  @Get(':subscriptionId/deliveries')
  @RequiresRole('editor')
  @ApiEndpoint({
    operationId: 'listDeliveries',
    summary: 'List delivery attempts',
    description: 'The subscription\'s delivery attempts, newest first: event id and type, case, attempt number, status code or error, and when. Any other query parameter is a 422.',
    success: { status: 200, description: 'The attempts.', schema: listOf('deliveries', 'DeliveryAttempt') },
    errors: { 404: SUBSCRIPTION_NOT_FOUND, 422: '`limit` is not an integer from 1 to 1000, or an unknown query parameter was given.' },
  })
  async deliveries(@Principal() caller: Caller, @SubscriptionId() id: number, @Query() query: ListDeliveriesRequest) {
    return { deliveries: await this.subscriptions.deliveries(caller.organizationId, id, query.limit ? Number(query.limit) : 100) };
  }
}

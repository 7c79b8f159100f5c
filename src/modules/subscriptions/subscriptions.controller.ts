import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiEndpoint, BODY_IGNORED } from '../../shared/http/api-endpoint.decorator.js';
import { IdParamPipe } from '../../shared/http/id-param.pipe.js';
import { listOf, schemaRef } from '../../shared/http/openapi-schema.js';
import { RequiresToken } from '../tokens/bearer-token.guard.js';
import type { Principal as Caller } from '../tokens/principal.js';
import { Principal } from '../tokens/principal.decorator.js';
import { CreateSubscriptionRequest } from './create-subscription.request.js';
import { ListDeliveriesRequest } from './list-deliveries.request.js';
import { SubscriptionsService } from './subscriptions.service.js';

const SubscriptionId = () => Param('subscriptionId', new IdParamPipe('subscription'));
const SUBSCRIPTION_NOT_FOUND = 'The subscription does not exist, belongs to another organization, or was deleted.';

@Controller('api/admin/v1/subscriptions')
@RequiresToken('admin')
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
      'Deliveries are signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`: HMAC-SHA256 with the `whsec_` secret of this answer, shown this once). A 2xx answer delivers; anything else, a network error or a 10-second timeout is retried with exponential backoff (from 5 seconds by default, 4 times longer each time, at most 6 hours apart) for 26 hours. Events of one case reach a subscription in order. A subscription failing for more than 3 days without one success is disabled. Loopback, private, link-local and metadata addresses are refused unless the service allows them.',
    ],
    success: { status: 201, description: 'The subscription and its signing secret.', schema: schemaRef('CreatedSubscription') },
    errors: {
      422: '`url` not an http(s) URL; `events` missing, empty, repeated or unknown; `workflow_ids` empty, repeated, not positive integers, more than 1,000, or naming a workflow outside the organization; an unsupported key; a body that is not a valid JSON object.',
    },
  })
  create(@Principal() caller: Caller, @Body() body: CreateSubscriptionRequest) {
    return this.subscriptions.create(caller.organizationId, body);
  }

  @Get()
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
  async delete(@Principal() caller: Caller, @SubscriptionId() id: number) {
    await this.subscriptions.delete(caller.organizationId, id);
  }

  @Get(':subscriptionId/deliveries')
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

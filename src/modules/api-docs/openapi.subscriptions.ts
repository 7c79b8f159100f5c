import { LIFECYCLE_EVENT_TYPES } from '../cases/domain/case-lifecycle.js';
import { jsonContent, listOf, object, parameterRef, resourceId, type Schema, schemaRef, timestamp } from './openapi.builders.js';
import type { Route } from './openapi.operations.js';

/** Event subscriptions (outbound webhooks, admin-api.md): their endpoints, schemas, and the request subscribers receive. */

const SUBSCRIPTIONS = '/api/admin/v1/subscriptions';
const eventType: Schema = { type: 'string', enum: [...LIFECYCLE_EVENT_TYPES] };
const eventId: Schema = { type: 'string', format: 'uuid', description: 'The event\'s id, also sent as `webhook-id`: the same on every attempt, so receivers can drop a repeat.' };
const SUBSCRIPTION_NOT_FOUND = 'The subscription does not exist, belongs to another organization, or was deleted.';

export const subscriptionSchemas: Record<string, Schema> = {
  Subscription: object(
    {
      id: resourceId('Subscription id.'),
      url: { type: 'string', format: 'uri' },
      events: { type: 'array', items: eventType },
      workflow_ids: { type: ['array', 'null'], items: resourceId('Workflow id.'), description: 'Only these workflows\' cases; null: every workflow of the organization.' },
      created_at: timestamp('Creation time'),
      failing_since: { type: ['string', 'null'], format: 'date-time', description: 'Since when deliveries fail without a success in between; null while healthy.' },
      disabled: { type: 'boolean', description: 'Disabled after failing for more than 3 days without one success: nothing is sent to it any more.' },
      disabled_at: { type: ['string', 'null'], format: 'date-time' },
      disabled_reason: { type: ['string', 'null'] },
    },
    [],
    'Where and which case events are sent.',
  ),
  CreateSubscriptionRequest: object(
    {
      url: { type: 'string', format: 'uri', pattern: '^[hH][tT][tT][pP][sS]?://', description: 'An `http` or `https` URL.' },
      events: { type: 'array', minItems: 1, uniqueItems: true, items: eventType },
      workflow_ids: { type: 'array', minItems: 1, maxItems: 1000, uniqueItems: true, items: resourceId('A workflow of the organization.'), description: 'Only these workflows\' cases; every workflow when absent.' },
    },
    ['workflow_ids'],
  ),
  CreatedSubscription: object({
    subscription: schemaRef('Subscription'),
    signing_secret: { type: 'string', pattern: '^whsec_', description: 'The Standard Webhooks signing secret, shown this once (stored sealed).' },
  }),
  DeliveryAttempt: object(
    {
      event_id: eventId,
      event_type: eventType,
      case_id: resourceId('The case the event is about.'),
      attempt: { type: 'integer', minimum: 1 },
      status_code: { type: ['integer', 'null'], description: 'What the subscriber answered; null when no answer came.' },
      error: { type: ['string', 'null'], description: 'Why the attempt failed (a non-2xx answer, a network error, a timeout); null when delivered.' },
      delivered: { type: 'boolean' },
      attempted_at: timestamp('When the attempt was made'),
    },
    [],
    'One attempt to deliver one event.',
  ),
  CaseEvent: object(
    {
      id: eventId,
      type: eventType,
      timestamp: timestamp('When the change happened'),
      data: object({ case: schemaRef('Case') }, [], 'The case as the change left it.'),
    },
    [],
    'The body of a delivery.',
  ),
};

export const subscriptionRoutes: Route[] = [
  {
    method: 'post',
    path: SUBSCRIPTIONS,
    tag: 'Event subscriptions',
    operationId: 'createSubscription',
    summary: 'Subscribe to case events',
    description: [
      'Lifecycle events of the organization\'s live cases are POSTed to `url` (test cases never produce events); the request is described under `webhooks` (`caseEvent`). Every move is a `case.status_changed`; entering `Closed` is also a `case.closed`, leaving it a `case.reopened`, being parked in `Error` a `case.errored`.',
      'Deliveries are signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`: HMAC-SHA256 with the `whsec_` secret of this answer, shown this once). A 2xx answer delivers; anything else, a network error or a 10-second timeout is retried with exponential backoff (from 5 seconds by default, 4 times longer each time, at most 6 hours apart) for 26 hours. Events of one case reach a subscription in order. A subscription failing for more than 3 days without one success is disabled. Loopback, private, link-local and metadata addresses are refused unless the service allows them.',
    ].join('\n\n'),
    credential: 'adminToken',
    body: { schema: schemaRef('CreateSubscriptionRequest'), required: true },
    success: { status: 201, description: 'The subscription and its signing secret.', schema: schemaRef('CreatedSubscription') },
    errors: {
      422: '`url` not an http(s) URL; `events` missing, empty, repeated or unknown; `workflow_ids` empty, repeated, not positive integers, more than 1,000, or naming a workflow outside the organization; an unsupported key; a body that is not a valid JSON object.',
    },
  },
  {
    method: 'get',
    path: SUBSCRIPTIONS,
    tag: 'Event subscriptions',
    operationId: 'listSubscriptions',
    summary: 'List subscriptions',
    description: 'The organization\'s subscriptions, oldest first, with their health; never a secret. Deleted ones are not listed.',
    credential: 'adminToken',
    success: { status: 200, description: 'The subscriptions.', schema: listOf('subscriptions', 'Subscription') },
  },
  {
    method: 'delete',
    path: `${SUBSCRIPTIONS}/{subscriptionId}`,
    tag: 'Event subscriptions',
    operationId: 'deleteSubscription',
    summary: 'Delete a subscription',
    description: 'Nothing more is sent to it, pending retries included. Takes no body (one that is sent is ignored).',
    credential: 'adminToken',
    parameters: [parameterRef('SubscriptionId')],
    success: { status: 204, description: 'Deleted; no body.' },
    errors: { 404: SUBSCRIPTION_NOT_FOUND },
  },
  {
    method: 'get',
    path: `${SUBSCRIPTIONS}/{subscriptionId}/deliveries`,
    tag: 'Event subscriptions',
    operationId: 'listDeliveries',
    summary: 'List delivery attempts',
    description: 'The subscription\'s delivery attempts, newest first: event id and type, case, attempt number, status code or error, and when. Any other query parameter is a 422.',
    credential: 'adminToken',
    parameters: [
      parameterRef('SubscriptionId'),
      { name: 'limit', in: 'query', required: false, description: 'How many attempts.', schema: { type: 'integer', minimum: 1, maximum: 1000, default: 100 } },
    ],
    success: { status: 200, description: 'The attempts.', schema: listOf('deliveries', 'DeliveryAttempt') },
    errors: { 404: SUBSCRIPTION_NOT_FOUND, 422: '`limit` is not an integer from 1 to 1000, or an unknown query parameter was given.' },
  },
];

const signatureHeader = (name: string, description: string): Schema => ({ name, in: 'header', required: true, description, schema: { type: 'string' } });

/** What the service sends to each subscription (OpenAPI 3.1 `webhooks`). */
export const outboundWebhooks: Record<string, Schema> = {
  caseEvent: {
    post: {
      tags: ['Event subscriptions'],
      operationId: 'caseEvent',
      summary: 'A case lifecycle event, POSTed to a subscription\'s URL',
      description: 'Sent with `Content-Type: application/json` and the Standard Webhooks headers; verify the signature over the raw body before trusting it.',
      parameters: [
        signatureHeader('webhook-id', 'The event id (the same on every attempt).'),
        signatureHeader('webhook-timestamp', 'Unix seconds of this attempt.'),
        signatureHeader('webhook-signature', '`v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>` with the subscription\'s `whsec_` secret.'),
      ],
      requestBody: { required: true, content: jsonContent(schemaRef('CaseEvent')) },
      responses: {
        '2XX': { description: 'Delivered.' },
        default: { description: 'Anything else (or no answer within 10 seconds) is retried.' },
      },
    },
  },
};

import { LIFECYCLE_EVENT_TYPES } from '../cases/domain/case-lifecycle.js';
import { jsonContent, object, resourceId, type Schema, schemaRef, timestamp } from '../../shared/http/openapi-schema.js';

/** Event subscriptions (outbound webhooks, admin-api.md): what their API answers, and the request subscribers receive. */

const eventType: Schema = { type: 'string', enum: [...LIFECYCLE_EVENT_TYPES] };
const eventId: Schema = { type: 'string', format: 'uuid', description: 'The event\'s id, also sent as `webhook-id`: the same on every attempt, so receivers can drop a repeat.' };

export const subscriptionSchemas: Record<string, Schema> = {
  Subscription: object(
    {
      id: resourceId('Subscription id.'),
      url: { type: 'string', format: 'uri' },
      events: { type: 'array', items: eventType },
      workflow_ids: { type: ['array', 'null'], items: resourceId('Workflow id.'), description: 'Only these workflows\' cases; null: every workflow of the organization.' },
      created_at: timestamp('Creation time'),
      failing_since: { type: ['string', 'null'], format: 'date-time', description: 'Since when deliveries fail without a success in between; null while healthy.' },
      status: { type: 'string', enum: ['active', 'disabled'], description: '`disabled` after failing for more than 3 days without one success: nothing is sent to it until it is enabled.' },
      disabled: { type: 'boolean', description: '`status` is `disabled`.' },
      disabled_at: { type: ['string', 'null'], format: 'date-time', description: 'When it was disabled; null while active.' },
      disabled_reason: { type: ['string', 'null'], description: 'Why it was disabled; null while active.' },
    },
    [],
    'Where and which case events are sent.',
  ),
  CreatedSubscription: object({
    subscription: schemaRef('Subscription'),
    signing_secret: { type: 'string', pattern: '^whsec_', description: 'The Standard Webhooks signing secret, shown this once (stored sealed).' },
  }),
  DeliveryAttempt: object(
    {
      delivery_id: resourceId('The delivery (this event to this subscription) the attempt belongs to; what `retry` takes.'),
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
      data: object(
        {
          case: schemaRef('Case'),
          comment: object(
            {
              id: { type: 'integer', minimum: 1 },
              visibility: { type: 'string', enum: ['internal', 'public'] },
              author: object({ id: { type: ['integer', 'null'], description: 'The person\'s user id; null for an admin token (their email is never sent).' } }),
              body: { type: 'string', description: 'A public reply\'s text; an internal note\'s is never sent.' },
            },
            ['body'],
          ),
          sla: object(
            {
              clock: { type: 'string', enum: ['first_response', 'next_response', 'resolution'] },
              due_at: { type: ['string', 'null'], format: 'date-time', description: 'When the clock is (or was) due; null for a warning whose clock paused since.' },
              late_ms: { type: 'integer', minimum: 0, description: 'How long after its time the timer fired: more than a few seconds only after an outage of every worker.' },
            },
          ),
        },
        ['comment', 'sla'],
        'The case as the change left it; for `case.commented`, the comment too; for `case.sla_warning` and `case.sla_breached`, the clock that warned or breached (`sla`).',
      ),
    },
    [],
    'The body of a delivery.',
  ),
};

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
        signatureHeader('webhook-signature', '`v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>` with the subscription\'s `whsec_` secret; for 24 hours after a rotation, two of them, space-separated (new secret, then the replaced one).'),
      ],
      requestBody: { required: true, content: jsonContent(schemaRef('CaseEvent')) },
      responses: {
        '2XX': { description: 'Delivered.' },
        default: { description: 'Anything else (or no answer within 10 seconds) is retried.' },
      },
    },
  },
};

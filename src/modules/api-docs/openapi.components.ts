import { headerRef, jsonContent, resourceId, type Schema, schemaRef } from '../../shared/http/openapi-schema.js';
import { schemas } from './openapi.schemas.js';

const error = (description: string, schema: Schema = schemaRef('Error')): Schema => ({ description, content: jsonContent(schema) });
const idParameter = (name: string, what: string): Schema => ({
  name,
  in: 'path',
  required: true,
  description: `The ${what}'s id. Anything but a positive integer below 2^53 names nothing and is answered 404.`,
  schema: resourceId(`${what} id`),
});

/** The errors every endpoint family shares; operations refer to them, overriding the description where theirs is narrower. */
const responses: Record<string, Schema> = {
  BadRequest: error('Malformed request: the body does not match its `Content-Length` header, or the URL has invalid percent-encoding.'),
  Unauthorized: error('Missing or invalid credential. Every credential problem (absent, malformed, unknown, deleted, or of the wrong kind) is the same 401.'),
  Forbidden: error('The caller is signed in, but their role does not allow this (docs: the role table of people.md); or a session\'s state-changing request came from another origin, or without the dashboard\'s CSRF header.'),
  NotFound: error('Not found, or outside the caller\'s organization.'),
  Conflict: error('What the request names is not in a state that allows it yet; nothing was done.'),
  Gone: error('What the request names is no longer kept (retention).'),
  PayloadTooLarge: error('Request body larger than 1 MB (1,048,576 bytes); refused while streaming, before anything is read further.'),
  UriTooLong: error('A path parameter longer than 200 characters (refused before the path is matched).'),
  UnsupportedMediaType: error('A request body whose `Content-Type` is not JSON (`application/json` or `application/*+json`).'),
  Unprocessable: error(
    'The request was understood but refused; nothing was created or changed. Body errors (not valid JSON, empty, nested deeper than 64 levels, not a JSON object, text that cannot be stored such as U+0000) are `{"error"}`; rule violations list every problem in `validation_errors`; a per-organization cap reached names it in `cap` and `limit`.',
    { oneOf: [schemaRef('Error'), schemaRef('ValidationError'), schemaRef('CapReachedError')] },
  ),
  TooManyRequests: { ...error('Too many requests; nothing was done. Ask again after `Retry-After` seconds.'), headers: { 'Retry-After': headerRef('RetryAfter') } },
  ServiceUnavailable: {
    ...error('Postgres (or, for /readyz, Redis) is unavailable right now, or did not finish the request\'s statement within `DATABASE_STATEMENT_TIMEOUT_MS`; nothing was done. Ask again after `Retry-After` seconds.'),
    headers: { 'Retry-After': headerRef('RetryAfter') },
  },
};

const parameters: Record<string, Schema> = {
  WorkflowId: idParameter('workflowId', 'workflow'),
  WorkflowVersion: {
    name: 'version',
    in: 'path',
    required: true,
    description: 'A version number of the workflow. Anything but a positive integer below 2^31 names nothing and is answered 404.',
    schema: { type: 'integer', minimum: 1, maximum: 2147483647 },
  },
  CaseId: idParameter('caseId', 'case'),
  TokenId: idParameter('tokenId', 'token'),
  SubscriptionId: idParameter('subscriptionId', 'subscription'),
  DeliveryId: idParameter('deliveryId', 'delivery'),
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description: 'Makes retries safe: within 24 hours, a request with the same key (per organization), the same workflow and the byte-identical body creates nothing and answers 201 with the case the first one created, plus `Idempotent-Replayed: true`. The same key with a different body or workflow is a 422.',
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$', description: '1 to 255 printable ASCII characters (no spaces); anything else is a 422.' },
  },
};

const headers: Record<string, Schema> = {
  AttachmentDisposition: {
    description: '`attachment`, with the file name as sent in `filename*` (RFC 8187, UTF-8) and an ASCII stand-in in `filename`; never shown inline.',
    schema: { type: 'string' },
  },
  RetryAfter: { description: 'Seconds to wait before asking again.', schema: { type: 'string', pattern: '^[1-9][0-9]*$' } },
  NoSniff: { description: 'Always `nosniff`: the content type is not guessed from the bytes.', schema: { type: 'string', const: 'nosniff' } },
  IdempotentReplayed: {
    description: 'Present (`true`) only when the answer replays the case an earlier request with the same `Idempotency-Key` created.',
    schema: { type: 'string', const: 'true' },
  },
};

const bearer = (description: string, format: string): Schema => ({ type: 'http', scheme: 'bearer', bearerFormat: format, description });

const securitySchemes: Record<string, Schema> = {
  apiToken: bearer('An API-scoped token (`api_...`), created by an admin; reaches the cases API of its own organization only.', 'api_<opaque>'),
  adminToken: bearer('An admin token (`adm_...`); reaches the admin API of its own organization only.', 'adm_<opaque>'),
  operatorToken: bearer('The `OPERATOR_TOKEN` the service was started with. Without one, the operator API answers 404.', 'opaque'),
  metricsToken: bearer('The `METRICS_TOKEN` the service was started with; without one, `/metrics` is open.', 'opaque'),
  webhookToken: {
    type: 'apiKey',
    in: 'query',
    name: 'token',
    description: 'The workflow\'s webhook token, carried in the webhook URL. It only creates cases on its own workflow; keep the URL secret.',
  },
};

export const components = { schemas, responses, parameters, headers, securitySchemes };

import { headerRef, NUMBER_RULE, parameterRef, schemaRef, wrapped } from './openapi.builders.js';
import type { Route } from './openapi.operations.js';

const CASES = '/api/external/v1/workflows/{workflowId}/cases';
const CASE = `${CASES}/{caseId}`;
const caseAnswer = wrapped('case', schemaRef('Case'));
const CASE_NOT_FOUND = 'The workflow or the case does not exist, belongs to another organization, or the case belongs to another workflow.';

/** The cases API and the incoming webhook (case-intake-api.md), and the health probes. */
export const publicRoutes: Route[] = [
  {
    method: 'post',
    path: CASES,
    tag: 'Cases',
    operationId: 'createCase',
    summary: 'Create a case',
    description: [
      'Creates a case on a published direct workflow of the caller\'s organization, on its latest published version: status `Open`, outcome null. The workflow\'s `Open` run (if any) starts asynchronously, after the answer.',
      'Only the top-level keys `subject`, `attributes` and `mode` are accepted: any other key is a 422 before anything is created. `attributes` is validated against the workflow\'s attribute schema (required attributes present and not null, declared types, enums and formats; undeclared keys are kept, except on workflows with `sensitive_data`) and stored exactly as sent.',
      'The body is JSON of at most 1 MB (1,048,576 bytes) nested at most 64 levels deep. Send an `Idempotency-Key` to make retries safe: a replay answers 201 with the original case and `Idempotent-Replayed: true`.',
    ].join('\n\n'),
    credential: 'apiToken',
    parameters: [parameterRef('WorkflowId'), parameterRef('IdempotencyKey')],
    body: { schema: schemaRef('CreateCaseRequest'), required: false, description: 'No body, or `{}`, is a case with the default subject and no attributes.' },
    success: {
      status: 201,
      description: 'The case was created (or, for a replayed `Idempotency-Key`, created earlier).',
      schema: caseAnswer,
      headers: { 'Idempotent-Replayed': headerRef('IdempotentReplayed') },
    },
    errors: {
      404: 'The workflow does not exist or belongs to another organization.',
      422: 'Nothing was created: an unsupported top-level key, `attributes` not an object, `mode` not `live`/`test`, `subject` over 1,000 characters; a body that is not valid JSON, empty, nested deeper than 64 levels, not a JSON object, or holds text that cannot be stored (U+0000); the workflow is not published or its case source is not `direct`; `attributes_validation_failed` with `validation_errors` (including a number in `attributes` too long written out, see `CreateCaseRequest`); an `Idempotency-Key` that is malformed or was used within 24 hours with a different body or workflow.',
    },
  },
  {
    method: 'get',
    path: CASE,
    tag: 'Cases',
    operationId: 'getCase',
    summary: 'Get a case',
    description: 'The case\'s current status, outcome and attributes, as the latest automation step left them.',
    credential: 'apiToken',
    parameters: [parameterRef('WorkflowId'), parameterRef('CaseId')],
    success: { status: 200, description: 'The case.', schema: caseAnswer },
    errors: { 404: CASE_NOT_FOUND },
  },
  {
    method: 'patch',
    path: CASE,
    tag: 'Cases',
    operationId: 'changeCaseStatus',
    summary: 'Change a case\'s status',
    description: [
      'Moves the case to `status`, which must be declared on the workflow version the case runs on and may not be `Error` (only the engine parks a case there). `status` is the only accepted key: any other key is a 422.',
      'The move is recorded on the timeline and starts the run attached to the new status (counted toward usage); a run still going in the previous status is superseded. PATCH to the current status re-enters it: it is recorded and that status\'s run starts again. `Closed` sets the outcome to the workflow\'s `default_outcome` (`Resolved` when none); any other status sets it to null. This is also how a case in `Error` is recovered.',
    ].join('\n\n'),
    credential: 'apiToken',
    parameters: [parameterRef('WorkflowId'), parameterRef('CaseId')],
    body: { schema: schemaRef('ChangeStatusRequest'), required: true },
    success: { status: 200, description: 'The case after the move.', schema: caseAnswer },
    errors: {
      404: CASE_NOT_FOUND,
      422: 'Nothing changed: `status` missing, not a string, or not 1 to 200 characters; an unsupported key; a body that is not a valid JSON object; a status the workflow does not declare; `Error`.',
    },
  },
  {
    method: 'post',
    path: '/api/external/v1/workflows/{workflowId}/case_webhooks',
    tag: 'Incoming webhook',
    operationId: 'receiveWebhook',
    summary: 'Create a case from an incoming webhook',
    description: [
      'The URL is the credential: the `token` query parameter must be the webhook token of the workflow in the path, and that workflow must be published with case source `direct`. No `Authorization` header is needed; any header sent for authorization is ignored.',
      'The body is read as JSON whatever its `Content-Type` says (senders get it wrong), so this endpoint never answers 415. It must be a JSON object of at most 1 MB (1,048,576 bytes) and at most 1,000 top-level keys (413 otherwise), nested at most 64 levels. Each top-level key becomes a case attribute of the same name, value kept as sent; undeclared keys are kept, except on workflows with `sensitive_data`, where they are validation errors.',
      'The case is live (no test mode here), `Open`, with subject `<workflow name> via Webhook - <YYYY-MM-DD HH:MM:SS> UTC`; it exists when the 201 is sent and its run starts afterwards. Every request creates a new case, retries included: put a stable event id in the payload if the workflow must detect duplicates.',
    ].join('\n\n'),
    credential: 'webhookToken',
    parameters: [parameterRef('WorkflowId')],
    body: { schema: { type: 'object', maxProperties: 1000, description: `Any JSON object: its top-level keys are the case attributes. ${NUMBER_RULE}` }, required: true, anyContentType: true },
    success: { status: 201, description: 'The case was created.', schema: wrapped('case', schemaRef('WebhookCaseReceipt')) },
    errors: {
      401: 'The workflow id or token is wrong, or the workflow is no longer a published direct workflow (all the same 401, `invalid webhook URL`).',
      413: 'Body larger than 1 MB (1,048,576 bytes), or a JSON object with more than 1,000 top-level keys. No case is created.',
      422: 'No case was created: the body is missing, empty, not valid JSON, nested deeper than 64 levels, not a JSON object, or holds text that cannot be stored (U+0000); or `attributes_validation_failed` with `validation_errors`, including a number too long written out (see the body).',
    },
  },
  {
    method: 'get',
    path: '/healthz',
    tag: 'Health',
    operationId: 'liveness',
    summary: 'Liveness probe',
    description: 'The process is up and serving HTTP. Checks nothing else and needs no credential.',
    credential: null,
    database: false,
    success: { status: 200, description: 'Alive.', schema: schemaRef('Health') },
  },
  {
    method: 'get',
    path: '/readyz',
    tag: 'Health',
    operationId: 'readiness',
    summary: 'Readiness probe',
    description: 'Postgres and Redis both answer within 2 seconds: the instance can take traffic. Needs no credential. One check a second serves every probe (concurrent probes share it), so the answer can be up to a second old.',
    credential: null,
    success: { status: 200, description: 'Ready.', schema: schemaRef('Readiness') },
    errors: { 503: 'Postgres or Redis did not answer within 2 seconds: take this instance out of rotation.' },
  },
  {
    method: 'get',
    path: '/metrics',
    tag: 'Health',
    operationId: 'metrics',
    summary: 'Prometheus metrics',
    description: 'The process\'s metrics in the Prometheus text format: Node.js runtime figures and workflow runs started and finished (live and test apart, `mode` label). With `METRICS_TOKEN` set, needs `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise); without it, needs no credential: expose it to the scraper only.',
    credential: 'metricsToken',
    credentialOptional: true,
    database: false,
    success: { status: 200, description: 'The metrics.', mediaType: 'text/plain', schema: { type: 'string' } },
  },
];

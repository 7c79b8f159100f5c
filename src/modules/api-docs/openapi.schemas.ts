import { NUMBER_RULE, object, resourceId, type Schema, schemaRef, timestamp } from '../../shared/http/openapi-schema.js';
import { SOURCE_TYPE } from '../workflows/domain/workflow-definition.js';
import { auditSchemas } from './openapi.audit.js';
import { caseworkSchemas } from './openapi.casework.js';
import { caseWorkFields, caseWorkSchemas } from './openapi.teams.js';
import { reportingSchemas } from './openapi.reporting.js';
import { retentionSchemas } from './openapi.retention.js';
import { emailEventFields, emailSchemas, timelineTo } from './openapi.email.js';
import { formSchemas } from './openapi.forms.js';
import { peopleSchemas } from './openapi.people.js';
import { commentSchemas } from './openapi.comments.js';
import { secretSchemas } from './openapi.secrets.js';
import { slaSchemas } from './openapi.sla.js';
import { verificationSchemas } from './openapi.verification.js';
import { subscriptionSchemas } from './openapi.subscriptions.js';
import { workflowSchemas } from './openapi.workflow-schemas.js';

const caseFields: Record<string, Schema> = {
  id: resourceId('Case id.'),
  workflow_id: resourceId('Workflow the case belongs to.'),
  subject: { type: 'string', description: 'Case title; when none was given, `<workflow name> via API - <YYYY-MM-DD HH:MM:SS> UTC` (or `via Webhook`, `via Email`, `via Form`). An email case\'s is the message\'s `Subject`, trimmed.' },
  status: { type: 'string', description: 'One of the statuses declared on the workflow version the case runs on. New cases are `Open`.' },
  outcome: { type: ['string', 'null'], description: 'Disposition of a `Closed` case (for example `Resolved`); null in every other status.' },
  mode: { type: 'string', enum: ['live', 'test'], description: 'Test cases run the workflow but are never billed and never produce events.' },
};
const caseTail: Record<string, Schema> = {
  attributes: { type: 'object', description: `The current attribute values, exactly as sent (JSON types, nested objects and arrays kept). ${NUMBER_RULE} A case that came by email has its message under \`email\`: the fields of an \`email_received\` timeline event (see \`TimelineEvent\`).` },
  created_at: timestamp('Creation time'),
  updated_at: timestamp('Time of the last change'),
};
const sourceType: Schema = {
  type: 'string',
  pattern: SOURCE_TYPE.source,
  description: 'How the case came in: `API` (the cases API), `Webhook` (the incoming webhook), `Email` (an email to the workflow\'s inbound address), `Form` (the hosted request form), or the source type of an extension\'s case source (docs/extending.md).',
};

const errorSchemas: Record<string, Schema> = {
  Error: object({ error: { type: 'string', description: 'What went wrong, for people; not a stable code.' } }, [], 'Every error body.'),
  ValidationProblem: object({
    path: { type: 'string', description: 'JSON Pointer (RFC 6901) to the offending value; `""` is the root object.' },
    error: { type: 'string', description: 'What is wrong with it.' },
  }),
  CapReachedError: object(
    {
      error: { type: 'string', description: 'What went wrong, for people; not a stable code.' },
      cap: { type: 'string', enum: ['MAX_SUBSCRIPTIONS_PER_ORGANIZATION', 'MAX_WORKFLOWS_PER_ORGANIZATION', 'MAX_SECRETS_PER_ORGANIZATION', 'MAX_TOKENS_PER_ORGANIZATION', 'MAX_DIGESTS_PER_ORGANIZATION', 'MAX_USERS_PER_ORGANIZATION'], description: 'The setting that caps what the organization may hold.' },
      limit: { type: 'integer', minimum: 1, description: 'Its value: how many the organization may hold.' },
    },
    [],
    'A 422: the organization already holds as many as the cap allows; nothing was created.',
  ),
  ValidationError: object(
    {
      error: {
        type: 'string',
        enum: ['attributes_validation_failed', 'workflow_definition_invalid', 'invalid request body', 'invalid query string'],
        description: '`attributes_validation_failed`: case attributes do not match the workflow\'s attribute schema. `workflow_definition_invalid`: a workflow definition was refused. `invalid request body`: a request body (or the admin case list\'s query string) broke the endpoint\'s rules, such as an unsupported key.',
      },
      validation_errors: { type: 'array', minItems: 1, items: schemaRef('ValidationProblem'), description: 'Every problem found, not only the first.' },
    },
    [],
    'A 422 listing each problem with the JSON Pointer of the value at fault.',
  ),
};

const caseSchemas: Record<string, Schema> = {
  Case: object({ ...caseFields, ...caseTail }, [], 'A case as the cases API shows it.'),
  CaseWithSource: object({ ...caseFields, source_type: sourceType, ...caseWorkFields, watchers: { type: 'integer', minimum: 0, description: 'How many people watch the case (casework.md section 4); its assignee always counts.' }, sla: { ...schemaRef('CaseSla'), description: 'The single case only (GET and PATCH of one case), not the list: its SLA clocks.' }, ...caseTail }, ['sla'], 'A case as the admin API shows it: a Case plus its `source_type`, who works it (`assignee`, `team`, `priority`), how many watch it and (one case) its SLA clocks.'),
  CaseLink: object(
    {
      id: resourceId('The link\'s id.'),
      type: { type: 'string', enum: ['relates', 'duplicates', 'blocks'] },
      direction: { type: 'string', enum: ['outward', 'inward'], description: '`outward`: this case relates to, duplicates or blocks the other; `inward`: the other case relates to, duplicates or blocks this one.' },
      case: object({ id: resourceId('The other case.'), subject: { type: 'string' }, status: { type: 'string' }, outcome: { type: ['string', 'null'] } }, [], 'The other case as it stands.'),
      created_at: timestamp('When the link was made'),
    },
    [],
    'A link between two cases of the organization, as one of them sees it.',
  ),
  CaseInList: object(
    {
      ...caseFields,
      source_type: sourceType,
      ...caseWorkFields,
      watchers: { type: 'integer', minimum: 0, description: 'How many people watch the case (casework.md section 4); its assignee always counts.' },
      ...caseTail,
      match: {
        type: ['object', 'null'],
        description: 'With `q` only: where the case matched (docs/search.md), null when no single value holds a matched word (a phrase across two values).',
        properties: {
          field: { type: 'string', enum: ['subject', 'attributes', 'email', 'comment'], description: 'The first field, in relevance order, holding a matched word.' },
          pointer: { type: ['string', 'null'], description: 'JSON Pointer of the value within its field: `""` for the subject, `/order/id` in the attributes, `/email/text` or `/replies/<event id>/text` for email.' },
          snippet: { type: ['string', 'null'], description: 'Up to 24 words of the value around the match, each matched word wrapped in `[[` `]]`.' },
        },
        required: ['field', 'pointer', 'snippet'],
        additionalProperties: false,
      },
    },
    ['match'],
    'A case in the admin case list: a case as the admin API shows it, and with `q` where it matched.',
  ),
  WebhookCaseReceipt: object({ id: resourceId('The new case\'s id.'), source_type: { type: 'string', const: 'Webhook' } }, [], 'What the incoming webhook answers; nothing else is shown to a webhook sender.'),
  TimelineEvent: {
    type: 'object',
    description: [
      'One entry of a case\'s timeline. Besides `id`, `type`, `by` and `at`, each type carries its own fields:',
      '`created`: `source`, `mode`, `status`. `status_changed`: `from`, `to`, `outcome`, and `reason` when the engine parked the case.',
      '`attributes_changed`: `keys` (removed ones too). `assigned`: `from`, `to` (`{id, email}` or null), `team_from`, `team_to` (`{id, name}` or null). `priority_changed`: `from`, `to`. `assign` (what an `assign` step picked): `run_id`, `team`, `assigned` (`{id, email}`, with `strategy`; or null, with `reason`: the team has no active member, or no longer exists). `run_started`: `run_id`, `status`, `mode`. `run_succeeded`: `run_id`, `status`. `run_failed`: `run_id`, `status`, `error`.',
      '`run_waiting`: `run_id`, `until`. `run_superseded`: `run_id`, `status` (the run cut short because the case left that status).',
      '`http_request`: `run_id`, `method`, `url`, `status` (the HTTP status answered). `http_request_retry`: `run_id`, `attempt`, `error`, `retry_at`.',
      '`sla_warning` / `sla_breached` (an SLA timer fired, by `engine`): `clock`, `due_at` (null for a warning whose clock paused since), `late_ms` (how long after its time it fired: more than a few seconds only after an outage of every worker).',
      '`comment_added`: `comment_id`, `visibility` (`internal` or `public`), `author` (`id`, `email`; both null for an admin token); the body is read from the case\'s comments, never copied here.',
      '`email_received` (a reply added to the case; a `Closed` case then reopens, recorded as a `status_changed` by `email`): `from`, `to`, `cc`, `subject`, `text`, `html`, `message_id`, `in_reply_to`, `references`, `date`, `attachments`, the same fields as the `email` attribute of a case that came by email; and `automatic: true` when a machine sent it (`Auto-Submitted`, `Precedence: bulk`, an answer to the service\'s own mail), which reopens nothing; a copy of a message of a case merged into this one carries `merged_from` (that case\'s id) and `received_at`.',
      '`merged_into` / `merged_from` (a merge; the merged case then moves to `Closed` with outcome `Merged`): `case_id`, the other case. `linked` / `unlinked`: `link_id`, `case_id` (the other case), `link_type` (`relates`, `duplicates`, `blocks`) and `direction` (`outward`: this case relates to, duplicates or blocks the other; `inward`: the other way).',
    ].join(' '),
    properties: {
      id: resourceId('Event id; events are listed in the order they happened.'),
      type: { type: 'string', description: 'What happened (see above).' },
      by: schemaRef('Actor'),
      at: timestamp('When it happened'),
      source: sourceType,
      mode: { type: 'string', enum: ['live', 'test'] },
      status: { type: ['string', 'integer'], description: 'The case status concerned; for `http_request`, the HTTP status answered.' },
      to: timelineTo,
      outcome: { type: ['string', 'null'] },
      reason: { type: 'string' },
      keys: { type: 'array', items: { type: 'string' }, description: 'The attributes a step set.' },
      run_id: resourceId('The run concerned.'),
      error: { type: 'string' },
      attempt: { type: 'integer', minimum: 1 },
      until: timestamp('When the run resumes'),
      retry_at: timestamp('When the step is tried again'),
      method: { type: 'string' },
      url: { type: 'string' },
      ...emailEventFields,
      case_id: resourceId('`merged_into`, `merged_from`, `linked`, `unlinked`: the other case.'),
      merged_from: resourceId('`email_received` only, on a copy of a message of a merged case: the case it came to.'),
      received_at: timestamp('On a copy of a merged case\'s message, when that case received it'),
      link_id: resourceId('`linked`, `unlinked`: the link.'),
      link_type: { type: 'string', enum: ['relates', 'duplicates', 'blocks'] },
      direction: { type: 'string', enum: ['outward', 'inward'], description: '`outward`: this case relates to, duplicates or blocks the other; `inward`: the other way.' },
      clock: { type: 'string', enum: ['first_response', 'next_response', 'resolution'], description: '`sla_warning`, `sla_breached`: the clock.' },
      due_at: { type: ['string', 'null'], format: 'date-time', description: '`sla_warning`, `sla_breached`: when the clock is (or was) due.' },
      late_ms: { type: 'integer', minimum: 0, description: '`sla_warning`, `sla_breached`: how long after its time the timer fired.' },
      automatic: { type: 'boolean', const: true, description: '`email_received` only, and only when a machine sent the reply: the case did not reopen.' },
      from: { type: ['string', 'object', 'null'], description: '`status_changed`, `priority_changed`: the status or priority left. `email_received`: the sender (`address`, `name`), or null. `assigned`: the assignee before (`id`, `email`), or null.' },
      team_from: { type: ['object', 'null'], description: '`assigned`: the team before (`id`, `name`), or null.' },
      team_to: { type: ['object', 'null'], description: '`assigned`: the new team (`id`, `name`), or null.' },
    },
    required: ['id', 'type', 'by', 'at'],
    additionalProperties: true,
  },
  Actor: object(
    {
      type: { type: 'string', enum: ['api_token', 'admin_token', 'user', 'webhook', 'email', 'form', 'case_source', 'automation', 'engine'] },
      id: resourceId('The token\'s id, for `api_token` and `admin_token`; the person\'s user id, for `user` (a person working the case).'),
      name: { type: 'string', description: 'The token\'s name (a deleted token\'s too), or the person\'s email address (while their user exists).' },
      source_type: { type: 'string', description: 'The source type of an extension\'s case source, for `case_source` only.' },
    },
    ['id', 'name', 'source_type'],
    'Who made the change.',
  ),
  Run: object(
    {
      id: resourceId('Run id; runs are listed in the order they started.'),
      status_at_start: { type: 'string', description: 'The status whose automation the run executes: the case\'s status when it started.' },
      on_sla: { type: ['string', 'null'], enum: ['warning', 'breached', null], description: 'Set on a run of the workflow\'s `on_sla` steps (sla.md section 3), which it executes instead of its status\'s; null for a status\'s run.' },
      workflow_version: { type: 'integer', minimum: 1, description: 'The published version of the workflow the run follows.' },
      state: { type: 'string', enum: ['pending', 'running', 'waiting', 'succeeded', 'failed', 'superseded'], description: '`superseded`: the case left the status before the run ended.' },
      started_at: { type: ['string', 'null'], format: 'date-time', description: 'When a worker first took it; null while pending.' },
      finished_at: { type: ['string', 'null'], format: 'date-time', description: 'When it ended; null while unfinished.' },
      error: { type: ['string', 'null'], description: 'Why a failed run failed (secret values masked).' },
      steps: { type: 'array', items: schemaRef('RunStep'), description: 'The steps it executed, in order; at most 100 (the steps after are counted in `steps_omitted`).' },
      steps_omitted: { type: 'integer', minimum: 0, description: 'Steps executed past the first 100, not listed: a trace stays bounded whatever the workflow does.' },
    },
    [],
    'One run of a status\'s automation on a case, with its trace.',
  ),
  RunStep: object(
    {
      path: { type: 'string', description: 'JSON Pointer of the step (or `if`) in the workflow definition, e.g. `/automations/Open/0/then/1`.' },
      type: { type: 'string', description: 'The step type, or `if`.' },
      outcome: {
        type: 'string',
        description: 'What the step did, as test runs name it: `change`, `sent` (a request answered 2xx), `move`, `close`, `wait`, `then` / `else` (the branch an `if` took), `fail` (a `fail` step), `error` (a step that failed the run), `retry` (a failed try; the step is tried again later, and the entry is replaced once it is).',
      },
      started_at: timestamp('When its first try started'),
      finished_at: timestamp('When its last try ended'),
      attempts: { type: 'integer', minimum: 1, description: 'How many times it was tried (a failing request is retried with backoff).' },
      http_status: { type: ['integer', 'null'], description: 'The status of the last answer its request got; null for a step that sent none or got no answer.' },
      error: { type: ['string', 'null'], description: 'Why it failed (secret values masked).' },
    },
    [],
    'One step of a run\'s trace.',
  ),
};

const accessSchemas: Record<string, Schema> = {
  Token: object(
    {
      id: resourceId('Token id.'),
      name: { type: 'string' },
      scope: { type: 'string', enum: ['api', 'admin'], description: '`api`: the cases API. `admin`: the admin API.' },
      created_at: timestamp('Creation time'),
      last_used_at: { type: ['string', 'null'], format: 'date-time', description: 'Last successful use, to the minute; null if never used.' },
    },
    [],
    'An API or admin token; its secret is never shown again after creation.',
  ),
  CreatedToken: object({
    token: schemaRef('Token'),
    secret: { type: 'string', pattern: '^(api|adm)_', description: 'The bearer secret (`api_...` or `adm_...`), shown this once; only its hash is stored.' },
  }),
  Organization: object({ id: resourceId('Organization id.'), name: { type: 'string' }, created_at: timestamp('Creation time') }),
  CreatedOrganization: object(
    {
      organization: schemaRef('Organization'),
      admin_token: { type: 'string', pattern: '^adm_', description: 'The organization\'s first admin token, shown this once.' },
      owner: { ...schemaRef('User'), description: 'With `owner_email`: the first owner, invited.' },
    },
    ['owner'],
  ),
  Webhook: object({
    url: { type: 'string', format: 'uri', description: 'The incoming webhook URL, token included: `{base}/api/external/v1/workflows/{id}/case_webhooks?token=...`.' },
    token: { type: 'string', description: 'The webhook token alone.' },
  }),
};

const usageCounts: Schema = object({ cases: { type: 'integer', minimum: 0 }, runs: { type: 'integer', minimum: 0 } }, [], 'Cases created and workflow runs started in the period.');

const usageSchemas: Record<string, Schema> = {
  Usage: object(
    {
      from: timestamp('Start of the period, inclusive'),
      to: timestamp('End of the period, exclusive'),
      live: { ...usageCounts, description: 'Live cases and runs: what is billed.' },
      test: { ...usageCounts, description: 'Test cases and runs, reported apart and never billed.' },
      workflows: {
        type: 'array',
        description: 'The same counts per workflow that had any, by workflow id.',
        items: object({ workflow_id: resourceId('Workflow id.'), live: usageCounts, test: usageCounts }),
      },
    },
    [],
    'Usage of an organization over a period.',
  ),
};

const healthSchemas: Record<string, Schema> = {
  Health: object({ status: { type: 'string', const: 'ok' } }),
  Readiness: object({ status: { type: 'string', const: 'ready' }, postgres: { type: 'string', const: 'ok' }, redis: { type: 'string', const: 'ok' } }),
};

export const schemas: Record<string, Schema> = {
  ...errorSchemas,
  ...caseSchemas,
  ...caseworkSchemas,
  ...workflowSchemas,
  ...accessSchemas,
  ...subscriptionSchemas,
  ...secretSchemas,
  ...slaSchemas,
  ...peopleSchemas,
  ...commentSchemas,
  ...verificationSchemas,
  ...retentionSchemas,
  ...auditSchemas,
  ...caseWorkSchemas,
  ...reportingSchemas,
  ...emailSchemas,
  ...formSchemas,
  ...usageSchemas,
  ...healthSchemas,
};

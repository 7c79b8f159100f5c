import { ATTRIBUTE_FORMATS, ATTRIBUTE_TYPES, BUILT_IN_CASE_SOURCES, SOURCE_TYPE } from '../workflows/domain/workflow-definition.js';
import { DEFAULT_STATUSES } from '../workflows/domain/status-rules.js';
import { DEFAULT_DEDUP_WINDOW_SECONDS, MAX_DEDUP_WINDOW_SECONDS, MIN_DEDUP_WINDOW_SECONDS } from '../workflows/domain/webhook-dedup.js';
import { object, resourceId, type Schema, schemaRef, timestamp } from '../../shared/http/openapi-schema.js';

/** The step kinds of workflows-and-automation.md, each a one-key object (an `if` step has `then` and `else` too). */
const STEP_KINDS = ['SetAttributesStep', 'SetStatusStep', 'CloseStep', 'IfStep', 'HttpRequestStep', 'WaitStep', 'FailStep'];
const stepList = (description: string): Schema => ({ type: 'array', maxItems: 100, items: schemaRef('Step'), description });

const definitionFields: Record<string, Schema> = {
  name: { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S', description: 'The intake name, used in default subjects (`<name> via API - ...`).' },
  case_source: {
    type: 'string',
    pattern: SOURCE_TYPE.source,
    description: `Where the workflow's cases come from: ${BUILT_IN_CASE_SOURCES.map((source) => `\`${source}\``).join(', ')}, or a case source an extension registered (its source type, docs/extending.md); anything else is a 422. Only \`direct\` workflows take cases from the cases API and the incoming webhook.`,
  },
  sensitive_data: { type: 'boolean', default: false, description: 'When true, undeclared attribute keys are refused (each is a validation error at its own path) instead of kept.' },
  default_outcome: { type: ['string', 'null'], minLength: 1, maxLength: 200, default: null, description: 'Outcome of a case closed through the API; `Resolved` when null.' },
  attributes: {
    type: 'object',
    default: {},
    propertyNames: { type: 'string', minLength: 1, maxLength: 200 },
    additionalProperties: schemaRef('AttributeDeclaration'),
    description: 'Attribute name -> declaration, answered in the order saved (the request form shows its fields in that order).',
  },
  automations: {
    type: 'object',
    default: {},
    propertyNames: { type: 'string', not: { const: 'Error' } },
    additionalProperties: stepList('The run of that status: at most 100 steps.'),
    description: 'Status name -> the steps of the run that starts each time a case enters that status. Every key must be a declared status other than `Error`; each step is checked (a `set_status` must name a declared status).',
  },
  webhook_dedup: {
    anyOf: [schemaRef('WebhookDedup'), { type: 'null' }],
    default: null,
    description: 'Direct workflows only. When set, webhook deliveries carrying the same value at `key` within `window_seconds` make one case (see receiveWebhook); null (the default) makes a case of every delivery. Like every definition change it takes effect when published.',
  },
};

export const workflowSchemas: Record<string, Schema> = {
  WorkflowDefinition: object(
    {
      name: definitionFields.name!,
      case_source: definitionFields.case_source!,
      sensitive_data: definitionFields.sensitive_data!,
      statuses: {
        type: 'array',
        default: [],
        uniqueItems: true,
        items: { type: 'string', minLength: 1, maxLength: 200, not: { enum: [...DEFAULT_STATUSES] } },
        description: 'Custom statuses only: `Open`, `Closed` and `Error` are always present and may not be declared again.',
      },
      default_outcome: definitionFields.default_outcome!,
      attributes: definitionFields.attributes!,
      automations: definitionFields.automations!,
      webhook_dedup: definitionFields.webhook_dedup!,
    },
    ['sensitive_data', 'statuses', 'default_outcome', 'attributes', 'automations', 'webhook_dedup'],
    'A whole workflow definition (workflows-and-automation.md). Unknown keys, at any level, are refused with `workflow_definition_invalid`.',
  ),
  Workflow: object(
    {
      id: resourceId('Workflow id (the last segment of its dashboard address).'),
      ...definitionFields,
      statuses: { type: 'array', items: { type: 'string' }, description: 'All statuses of the draft: `Open`, `Closed`, `Error`, then the custom ones.' },
      published: { type: 'boolean', description: 'Whether the workflow takes cases right now.' },
      version: { type: ['integer', 'null'], minimum: 1, description: 'The latest published version; null until the first publish.' },
      draft_changed: { type: 'boolean', description: 'Whether the draft differs from the latest published version (always true before the first publish). While false, publishing makes no new version.' },
      created_at: timestamp('Creation time'),
      updated_at: timestamp('Time of the last change'),
    },
    [],
    'A workflow: its draft definition (what `name` ... `automations` show) and its publication state. Cases run on the latest published version.',
  ),
  WorkflowVersionSummary: object(
    {
      version: { type: 'integer', minimum: 1, description: 'The version number, counted from 1 per workflow.' },
      published_at: timestamp('When it was published'),
      published_by: { type: ['string', 'null'], description: 'Who published it: the admin token\'s name; null for versions published before this was recorded.' },
    },
    [],
    'A published version, without its definition.',
  ),
  WorkflowVersion: object(
    {
      version: { type: 'integer', minimum: 1, description: 'The version number, counted from 1 per workflow.' },
      published_at: timestamp('When it was published'),
      published_by: { type: ['string', 'null'], description: 'Who published it: the admin token\'s name; null for versions published before this was recorded.' },
      definition: schemaRef('WorkflowDefinition'),
    },
    [],
    'A published version with its definition as it was published.',
  ),
  AttributeDeclaration: object(
    {
      type: { type: 'string', enum: [...ATTRIBUTE_TYPES] },
      required: { type: 'boolean', default: false, description: 'Present and not null. An attribute that is not required accepts null.' },
      enum: { type: 'array', minItems: 1, description: 'The allowed values.' },
      format: { type: 'string', enum: [...ATTRIBUTE_FORMATS], description: 'For `string` attributes only.' },
    },
    ['required', 'enum', 'format'],
  ),
  WebhookDedup: object(
    {
      key: { type: 'string', minLength: 2, maxLength: 1000, pattern: '^(/([^~]|~[01])*)+$', description: 'A JSON Pointer into the posted object, such as `/delivery_id` or `/event/id`. Its value, a string or an integer, is compared as its exact JSON text.' },
      window_seconds: { type: 'integer', minimum: MIN_DEDUP_WINDOW_SECONDS, maximum: MAX_DEDUP_WINDOW_SECONDS, default: DEFAULT_DEDUP_WINDOW_SECONDS, description: 'How long a key keeps its case, counted from the delivery that created it.' },
    },
    ['window_seconds'],
    'De-duplication of webhook deliveries by a key in the posted object.',
  ),
  Step: { oneOf: STEP_KINDS.map(schemaRef), description: 'One step of a run.' },
  SetAttributesStep: object({ set_attributes: { type: 'object', minProperties: 1, description: 'Merged into the case\'s attributes (validated against the schema; a violation fails the run, and so does a number, possibly from a template, that the attributes\' number rule refuses, or attributes that would take more than the 1,048,576 bytes a case keeps). Strings may hold `{{ path }}` templates (not `{{ secrets.NAME }}`).' } }),
  SetStatusStep: object({ set_status: { type: 'string', not: { const: 'Error' }, description: 'Moves the case to this declared status; that status\'s run starts.' } }),
  CloseStep: object({ close: object({ outcome: { type: 'string', minLength: 1, pattern: '\\S' } }, ['outcome'], 'Moves the case to `Closed` with this outcome (the workflow\'s default when omitted).') }),
  IfStep: object(
    { if: schemaRef('Condition'), then: stepList('Steps run when the condition holds.'), else: stepList('Steps run otherwise.') },
    ['else'],
  ),
  Condition: {
    type: 'object',
    description: 'A test on one field, with exactly one operator. Fields: `case.id`, `case.subject`, `case.status`, `case.mode`, `case.workflow_id`, `attributes.<name>` (dots go into nested objects).',
    properties: {
      field: { type: 'string', pattern: '^(case\\.(id|subject|status|mode|workflow_id)|attributes\\.[^.]+(\\.[^.]+)*)$' },
      equals: { description: 'Any JSON value.' },
      not_equals: { description: 'Any JSON value.' },
      in: { type: 'array' },
      exists: { type: 'boolean' },
    },
    required: ['field'],
    // `field` and exactly one operator.
    minProperties: 2,
    maxProperties: 2,
    additionalProperties: false,
  },
  HttpRequestStep: object({
    http_request: object(
      {
        method: { type: 'string', enum: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] },
        url: {
          type: 'string',
          pattern: '^([hH][tT][tT][pP][sS]?://[^/?#{}]+([/?#].*)?|\\{\\{[^{}]+\\}\\})$',
          description: 'An http(s) URL. Templates may stand only after the host (in the path, query or fragment): each value is percent-encoded as one URL component (`/ ? # @ : % &` included), so it can never change the scheme, host, port or the path above it, and a value that would make a `.` or `..` path segment fails the run. A template in the scheme, host, user or port is a 422. `{{ secrets.NAME }}` may stand only in a query value (`?key={{ secrets.CRM_KEY }}`). A url that is exactly one template (`{{ attributes.link }}`) needs `url_from_attribute`. Loopback, private, link-local and metadata addresses are refused unless the service allows them.',
        },
        url_from_attribute: { type: 'boolean', default: false, description: 'The url is exactly one template, and its value (an http(s) URL, else the run fails) is the whole url. The address checks apply to it as to every url. Such a step may not use `{{ secrets.NAME }}` in its headers or body (422): whoever sets the attribute chooses where the request goes.' },
        headers: {
          type: 'object',
          additionalProperties: { type: 'string' },
          description: 'Templates allowed in values, `{{ secrets.NAME }}` included: put credentials such as an API key in an organization secret (`PUT /api/admin/v1/secrets/{name}`), never in the definition, which every admin can read. A value written with CR, LF or NUL is a 422; one that holds them once filled in fails the run (`header <name> contains a line break`), and nothing is sent.',
        },
        body: { description: 'Any JSON value; templates, `{{ secrets.NAME }}` included, are resolved in its strings.' },
        timeout_ms: { type: 'integer', minimum: 1, maximum: 60000 },
        retries: { type: 'integer', minimum: 0, maximum: 10, default: 3, description: 'Retries with exponential backoff from 1 second on network errors and non-2xx answers.' },
        save_response_as: { type: 'string', minLength: 1, description: 'Attribute that receives the JSON answer. An answer holding a number the attributes\' number rule refuses, or one that would take the attributes past the 1,048,576 bytes a case keeps, fails the run, and nothing is stored.' },
      },
      ['url_from_attribute', 'headers', 'body', 'timeout_ms', 'retries', 'save_response_as'],
      'Calls an outside system; 2xx succeeds, anything else fails the run once the retries are spent. A secret\'s value never reaches the case, the timeline, an event, a log line or an error message (a failing step shows `[secret NAME]` in its place); what `save_response_as` stores is what the receiver answered.',
    ),
  }),
  WaitStep: object({ wait: object({ seconds: { type: 'number', exclusiveMinimum: 0, maximum: 2592000 } }, [], 'Resumes the run after this many seconds (at most 30 days).') }),
  FailStep: object({ fail: { type: 'string', minLength: 1, pattern: '\\S', description: 'Fails the run on purpose with this message: the case is parked in `Error`.' } }),
};

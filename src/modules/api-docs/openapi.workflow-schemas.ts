import { ATTRIBUTE_FORMATS, ATTRIBUTE_TYPES, BUILT_IN_CASE_SOURCES, SOURCE_TYPE } from '../workflows/domain/workflow-definition.js';
import { DEFAULT_STATUSES } from '../workflows/domain/status-rules.js';
import { DEFAULT_DEDUP_WINDOW_SECONDS, MAX_DEDUP_WINDOW_SECONDS, MIN_DEDUP_WINDOW_SECONDS } from '../workflows/domain/webhook-dedup.js';
import type { StepTypeDefinition } from '../../extension-api/step-types.js';
import { object, resourceId, type Schema, schemaRef, timestamp } from '../../shared/http/openapi-schema.js';

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
  requester_attribute: {
    type: 'string',
    pattern: '^/[^/]+$',
    description: 'Optional: a JSON Pointer to a declared string attribute with `format: "email"`, the address public replies to a case go to (an email case replies to its first message\'s sender instead).',
  },
  on_sla: {
    type: 'object',
    properties: { warning: stepList('Run when a clock of the case warns (`case.sla_warning`).'), breached: stepList('Run when a clock of the case breaches (`case.sla_breached`).') },
    additionalProperties: false,
    description: 'Optional (sla.md section 3): steps run as a run of the case, metered as a run, when one of its SLA clocks warns or breaches; the run starts in the transaction that fires the timer, so once per firing. Any other key is a 422.',
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
      requester_attribute: definitionFields.requester_attribute!,
      on_sla: definitionFields.on_sla!,
    },
    ['sensitive_data', 'statuses', 'default_outcome', 'attributes', 'automations', 'webhook_dedup', 'requester_attribute', 'on_sla'],
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
    ['requester_attribute', 'on_sla'],
    'A workflow: its draft definition (what `name` ... `automations` show) and its publication state. Cases run on the latest published version.',
  ),
  WorkflowName: object(
    {
      id: resourceId('Workflow id.'),
      name: definitionFields.name!,
      statuses: { type: 'array', items: { type: 'string' }, description: 'All statuses of the draft: `Open`, `Closed`, `Error`, then the custom ones.' },
      attributes: { ...definitionFields.attributes!, description: 'The draft\'s attribute declarations; only for a caller of role `agent` or stronger (who works cases).' },
    },
    ['attributes'],
    'A workflow as a case list names and filters it: no definition.',
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
      searchable: {
        type: 'boolean',
        description: 'Whether the case lists\' `q` searches the attribute\'s values (all of them, nested ones included). Default: true, except on a workflow with `sensitive_data`, where only attributes declared `true` are searched.',
      },
    },
    ['required', 'enum', 'format', 'searchable'],
  ),
  WebhookDedup: object(
    {
      key: { type: 'string', minLength: 2, maxLength: 1000, pattern: '^(/([^~]|~[01])*)+$', description: 'A JSON Pointer into the posted object, such as `/delivery_id` or `/event/id`. Its value, a string or an integer, is compared as its exact JSON text.' },
      window_seconds: { type: 'integer', minimum: MIN_DEDUP_WINDOW_SECONDS, maximum: MAX_DEDUP_WINDOW_SECONDS, default: DEFAULT_DEDUP_WINDOW_SECONDS, description: 'How long a key keeps its case, counted from the delivery that created it.' },
    },
    ['window_seconds'],
    'De-duplication of webhook deliveries by a key in the posted object.',
  ),
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
};

/**
 * `Step` and one schema per registered step type (`open_ticket` is `OpenTicketStep`), each a
 * one-key object holding the type's arguments: an extension's step shows in the document as
 * the built-in ones do.
 */
export function stepSchemas(types: readonly StepTypeDefinition[]): Record<string, Schema> {
  const named = types.map((t) => [`${t.type.replace(/(^|_)([a-z0-9])/g, (_, __, c: string) => c.toUpperCase())}Step`, t] as const);
  return {
    Step: { oneOf: [...named.map(([name]) => name), 'IfStep'].map(schemaRef), description: 'One step of a run.' },
    ...Object.fromEntries(named.map(([name, t]) => [name, object({ [t.type]: t.argumentsSchema as Schema })])),
  };
}

import type { ValidationProblem } from '../../../shared/errors/app-error.js';
import { NUMBER_TOO_LARGE, unstorableNumber } from '../../../shared/json/json-numbers.js';
import { pointer } from '../../../shared/json/json-pointer.js';
import { isPlainObject } from '../../../shared/json/json-text.js';
import { reportSecretTemplates } from './http-request-definition.js';
import type { StepArgumentRules } from './step-arguments.js';
import { checkWebhookDedup, type WebhookDedupSetting } from './webhook-dedup.js';
import { DEFAULT_STATUSES, ERROR } from './status-rules.js';
import { checkOnSla, type OnSlaSteps } from './on-sla-steps.js';

/** The built-in sources' `case_source`s; extensions' case sources add their own (CaseSourceRegistry). */
export const BUILT_IN_CASE_SOURCES: readonly string[] = ['direct', 'ticketing', 'email'];
/** What a case source's type looks like (`API`, `ticket_bus`): it is shown, filtered on and used as a metric label. */
export const SOURCE_TYPE = /^[A-Za-z][A-Za-z0-9_]{0,39}$/;
export const ATTRIBUTE_TYPES = ['string', 'integer', 'number', 'boolean', 'object', 'array', 'any'] as const;
export type AttributeType = (typeof ATTRIBUTE_TYPES)[number];
export const ATTRIBUTE_FORMATS = ['email', 'uri', 'date-time', 'date'] as const;

export interface AttributeDeclaration {
  type: AttributeType;
  required?: boolean;
  enum?: unknown[];
  format?: (typeof ATTRIBUTE_FORMATS)[number];
  /** Whether a text search reads the attribute: by default yes, but not on a workflow with sensitive data (docs/search.md). */
  searchable?: boolean;
}

/** A step of a run: `{"<step type>": <arguments>}`, or an `if`; each step type checks its own arguments. */
export type Step = Record<string, unknown>;

export interface WorkflowDefinition {
  name: string;
  case_source: string;
  sensitive_data: boolean;
  /** Custom statuses only; Open, Closed and Error are implied. */
  statuses: string[];
  default_outcome: string | null;
  attributes: Record<string, AttributeDeclaration>;
  automations: Record<string, Step[]>;
  /** Absent (off) unless set; versions published before it existed never have it. */
  webhook_dedup?: WebhookDedupSetting;
  /** A JSON Pointer to the attribute (`format: "email"`) holding the address public replies go to (casework.md section 3). */
  requester_attribute?: string;
  /** The steps run as a run of the case when one of its SLA clocks warns or breaches (sla.md section 3). */
  on_sla?: OnSlaSteps;
}

const TOP_LEVEL_KEYS = new Set(['name', 'case_source', 'sensitive_data', 'statuses', 'default_outcome', 'attributes', 'automations', 'webhook_dedup', 'requester_attribute', 'on_sla']);
const ATTRIBUTE_KEYS = new Set(['type', 'required', 'enum', 'format', 'searchable']);
const CONDITION_OPERATORS = ['equals', 'not_equals', 'in', 'exists'] as const;
const CASE_FIELDS = new Set(['case.id', 'case.subject', 'case.status', 'case.mode', 'case.workflow_id']);
const MAX_STEPS = 100;
const MAX_NAME = 200;

export type DefinitionResult = { ok: true; definition: WorkflowDefinition } | { ok: false; problems: ValidationProblem[] };

/**
 * Checks a whole workflow definition and normalises it (defaults filled in). Every problem
 * is reported with the JSON Pointer of the offending value, not just the first one.
 * `caseSources` are the `case_source`s of the registered case sources.
 */
export function parseWorkflowDefinition(input: unknown, steps: StepArgumentRules, caseSources: readonly string[] = BUILT_IN_CASE_SOURCES): DefinitionResult {
  const problems: ValidationProblem[] = [];
  const report = (path: string, error: string) => problems.push({ path, error });
  if (!isPlainObject(input)) return { ok: false, problems: [{ path: '', error: 'the definition must be a JSON object' }] };

  for (const key of Object.keys(input)) if (!TOP_LEVEL_KEYS.has(key)) report(pointer('', key), `unknown key "${key}"`);
  reportNonFiniteNumbers(input, '', report);

  const name = input.name;
  if (typeof name !== 'string' || name.trim() === '' || name.length > MAX_NAME) report('/name', `must be a non-empty string of at most ${MAX_NAME} characters`);

  const caseSource = input.case_source;
  if (typeof caseSource !== 'string' || !caseSources.includes(caseSource)) report('/case_source', `must be one of ${caseSources.map((name) => `"${name}"`).join(', ')}`);

  const sensitive = input.sensitive_data ?? false;
  if (typeof sensitive !== 'boolean') report('/sensitive_data', 'must be a boolean');

  const statuses = checkStatuses(input.statuses ?? [], report);
  const declared = new Set<string>([...DEFAULT_STATUSES, ...statuses]);

  const defaultOutcome = input.default_outcome ?? null;
  if (defaultOutcome !== null && (typeof defaultOutcome !== 'string' || defaultOutcome.trim() === '' || defaultOutcome.length > MAX_NAME)) {
    report('/default_outcome', 'must be a non-empty string or null');
  }

  const attributes = input.attributes ?? {};
  checkAttributes(attributes, report);

  const automations = input.automations ?? {};
  const known = knownAttributes(attributes, [automations, input.on_sla]);
  if (!isPlainObject(automations)) {
    report('/automations', 'must be an object of status name -> list of steps');
  } else {
    for (const [status, list] of Object.entries(automations)) {
      const path = pointer('/automations', status);
      if (status === ERROR) report(path, 'no automation may run in "Error": it is where the engine parks failed runs');
      else if (!declared.has(status)) report(path, `status "${status}" is not declared`);
      checkSteps(list, path, { statuses: declared, attributes: known }, steps, report);
    }
  }

  const onSla = checkOnSla(input.on_sla, (list, path) => checkSteps(list, path, { statuses: declared, attributes: known }, steps, report), report);

  const webhookDedup = checkWebhookDedup(input.webhook_dedup, '/webhook_dedup', report);
  if (webhookDedup && caseSource !== 'direct') report('/webhook_dedup', 'only direct workflows take webhook deliveries');

  const requesterAttribute = checkRequesterAttribute(input.requester_attribute, attributes, report);

  if (problems.length) return { ok: false, problems };
  return {
    ok: true,
    definition: {
      name: name as string,
      case_source: caseSource as string,
      sensitive_data: sensitive as boolean,
      statuses,
      default_outcome: defaultOutcome as string | null,
      attributes: attributes as Record<string, AttributeDeclaration>,
      automations: automations as Record<string, Step[]>,
      ...(webhookDedup ? { webhook_dedup: webhookDedup } : {}),
      ...(requesterAttribute !== undefined ? { requester_attribute: requesterAttribute } : {}),
      ...(onSla ? { on_sla: onSla } : {}),
    },
  };
}

/** Whether two definitions are the same, key order included: the order of the attributes is the order of a form's fields. */
export function sameDefinition(a: WorkflowDefinition, b: WorkflowDefinition): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

type Report = (path: string, error: string) => void;

/** `/<name>` of a declared string attribute with `format: "email"`: the requester's address. */
function checkRequesterAttribute(value: unknown, attributes: unknown, report: Report): string | undefined {
  if (value === undefined) return undefined;
  const name = typeof value === 'string' && /^\/[^/]+$/.test(value) ? value.slice(1).replace(/~1/g, '/').replace(/~0/g, '~') : undefined;
  const declaration = name !== undefined && isPlainObject(attributes) ? attributes[name] : undefined;
  if (!isPlainObject(declaration) || declaration.type !== 'string' || declaration.format !== 'email') {
    report('/requester_attribute', 'must be a JSON Pointer (such as "/customer_email") to a declared string attribute with format "email"');
    return undefined;
  }
  return value as string;
}

/**
 * A definition is stored as parsed JSON, where 1e400 would silently become null, and 1e300
 * would be written out as 301 digits (the same rule as case attributes, on the stored text).
 */
function reportNonFiniteNumbers(value: unknown, path: string, report: Report): void {
  if (typeof value === 'number' && !Number.isFinite(value)) report(path, 'number out of range');
  else if (typeof value === 'number' && unstorableNumber(JSON.stringify(value))) report(path, NUMBER_TOO_LARGE);
  else if (Array.isArray(value)) value.forEach((item, i) => reportNonFiniteNumbers(item, pointer(path, i), report));
  else if (isPlainObject(value)) for (const [key, item] of Object.entries(value)) reportNonFiniteNumbers(item, pointer(path, key), report);
}

function checkStatuses(value: unknown, report: Report): string[] {
  if (!Array.isArray(value)) {
    report('/statuses', 'must be an array of status names');
    return [];
  }
  const seen = new Set<string>();
  value.forEach((status, i) => {
    const path = pointer('/statuses', i);
    if (typeof status !== 'string' || status.trim() === '' || status.length > MAX_NAME) report(path, `must be a non-empty string of at most ${MAX_NAME} characters`);
    else if ((DEFAULT_STATUSES as readonly string[]).includes(status)) report(path, `"${status}" is a default status and is always present; do not declare it`);
    else if (seen.has(status)) report(path, `duplicate status "${status}"`);
    else seen.add(status);
  });
  return [...seen];
}

function checkAttributes(value: unknown, report: Report): void {
  if (!isPlainObject(value)) {
    report('/attributes', 'must be an object of attribute name -> declaration');
    return;
  }
  for (const [name, declaration] of Object.entries(value)) {
    const path = pointer('/attributes', name);
    if (name === '' || name.length > MAX_NAME) report(path, `attribute names must be 1 to ${MAX_NAME} characters`);
    if (!isPlainObject(declaration)) {
      report(path, 'must be an object like {"type": "string"}');
      continue;
    }
    for (const key of Object.keys(declaration)) if (!ATTRIBUTE_KEYS.has(key)) report(pointer(path, key), `unknown key "${key}"`);
    const type = declaration.type;
    if (!(ATTRIBUTE_TYPES as readonly unknown[]).includes(type)) report(pointer(path, 'type'), `unknown attribute type; use one of ${ATTRIBUTE_TYPES.join(', ')}`);
    if (declaration.required !== undefined && typeof declaration.required !== 'boolean') report(pointer(path, 'required'), 'must be a boolean');
    if (declaration.searchable !== undefined && typeof declaration.searchable !== 'boolean') report(pointer(path, 'searchable'), 'must be a boolean');
    if (declaration.enum !== undefined && (!Array.isArray(declaration.enum) || declaration.enum.length === 0)) report(pointer(path, 'enum'), 'must be a non-empty array');
    if (declaration.format !== undefined) {
      if (!(ATTRIBUTE_FORMATS as readonly unknown[]).includes(declaration.format)) report(pointer(path, 'format'), `unknown format; use one of ${ATTRIBUTE_FORMATS.join(', ')}`);
      else if (type !== 'string') report(pointer(path, 'format'), 'format applies to string attributes only');
    }
  }
}

/** What a step may refer to: the declared statuses, and the attributes a condition may name. */
interface Known {
  statuses: ReadonlySet<string>;
  attributes: ReadonlySet<string>;
}

/**
 * The attributes a condition may name: the declared ones, and those the definition's own steps
 * write (`save_response_as`, `set_attributes`), which exist by the time a later step reads them.
 */
function knownAttributes(attributes: unknown, stepLists: unknown): Set<string> {
  const known = new Set(isPlainObject(attributes) ? Object.keys(attributes) : []);
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (isPlainObject(value)) {
      if (typeof value.save_response_as === 'string') known.add(value.save_response_as);
      if (isPlainObject(value.set_attributes)) for (const name of Object.keys(value.set_attributes)) known.add(name);
      Object.values(value).forEach(visit);
    }
  };
  visit(stepLists);
  return known;
}

function checkSteps(list: unknown, path: string, declared: Known, steps: StepArgumentRules, report: Report): void {
  if (!Array.isArray(list)) {
    report(path, 'must be an array of steps');
    return;
  }
  if (list.length > MAX_STEPS) report(path, `at most ${MAX_STEPS} steps`);
  list.forEach((step, i) => checkStep(step, pointer(path, i), declared, steps, report));
}

function checkStep(step: unknown, path: string, declared: Known, steps: StepArgumentRules, report: Report): void {
  if (!isPlainObject(step)) {
    report(path, 'a step must be an object');
    return;
  }
  const keys = Object.keys(step);
  if ('if' in step) {
    for (const key of keys) if (!['if', 'then', 'else'].includes(key)) report(pointer(path, key), `unknown key "${key}" in an if step`);
    checkCondition(step.if, pointer(path, 'if'), declared.attributes, report);
    reportSecretTemplates(step.if, pointer(path, 'if'), report);
    checkSteps(step.then ?? null, pointer(path, 'then'), declared, steps, report);
    if (step.else !== undefined) checkSteps(step.else, pointer(path, 'else'), declared, steps, report);
    return;
  }
  if (keys.length !== 1) {
    report(path, `a step has exactly one of ${[...steps.types, 'if'].join(', ')}`);
    return;
  }
  const kind = keys[0]!;
  const arg = step[kind];
  const at = pointer(path, kind);
  // Organization secrets reach only the receiver of an http_request; other step types ask for theirs by name.
  if (kind !== 'http_request') reportSecretTemplates(arg, at, report);
  if (!steps.check(kind, arg, at, declared.statuses, report)) report(path, `unknown step "${kind}"`);
}

function checkCondition(condition: unknown, path: string, attributes: ReadonlySet<string>, report: Report): void {
  if (!isPlainObject(condition)) {
    report(path, 'must be an object like {"field": "case.mode", "equals": "test"}');
    return;
  }
  const field = condition.field;
  if (typeof field !== 'string' || !(CASE_FIELDS.has(field) || /^attributes\.[^.]+(\.[^.]+)*$/.test(field))) {
    report(pointer(path, 'field'), `must be one of ${[...CASE_FIELDS].join(', ')} or attributes.<name>`);
  } else if (field.startsWith('attributes.') && !attributes.has(field.split('.')[1]!)) {
    // A typo here would make the condition silently false on every case.
    report(pointer(path, 'field'), `attribute "${field.split('.')[1]}" is not declared in /attributes`);
  }
  const operators = CONDITION_OPERATORS.filter((op) => op in condition);
  for (const key of Object.keys(condition)) {
    if (key !== 'field' && !(CONDITION_OPERATORS as readonly string[]).includes(key)) report(pointer(path, key), `unknown key "${key}"`);
  }
  if (operators.length !== 1) {
    report(path, `must have exactly one of ${CONDITION_OPERATORS.join(', ')}`);
    return;
  }
  const op = operators[0]!;
  if (op === 'in' && !Array.isArray(condition.in)) report(pointer(path, 'in'), 'must be an array');
  if (op === 'exists' && typeof condition.exists !== 'boolean') report(pointer(path, 'exists'), 'must be a boolean');
}

/** All statuses of a definition, defaults first. */
export function allStatuses(definition: WorkflowDefinition): string[] {
  return [...DEFAULT_STATUSES, ...definition.statuses];
}

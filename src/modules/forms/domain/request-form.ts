import type { AttributeDeclaration, WorkflowDefinition } from '../../workflows/domain/workflow-definition.js';

/** How a field is entered: the HTML control it is drawn as, and how its posted text is read. */
export type FieldInput = 'text' | 'textarea' | 'email' | 'url' | 'date' | 'datetime' | 'integer' | 'number' | 'checkbox' | 'select' | 'json';

export interface FormChoice {
  /** The choice's JSON text: what the select posts, and what the attribute becomes. */
  value: string;
  label: string;
}

export interface FormField {
  /** The attribute the field fills. */
  attribute: string;
  /** The posted name: `attribute:` and the attribute's, so no attribute clashes with `subject` or the honeypot. */
  control: string;
  label: string;
  input: FieldInput;
  required: boolean;
  choices: FormChoice[];
  /** What the field takes, said to the person filling it in; null when the label says enough. */
  hint: string | null;
}

/** The generated form of one workflow version: its name, then the fields in the order drawn. */
export interface RequestForm {
  title: string;
  fields: FormField[];
}

export const SUBJECT_CONTROL = 'subject';
/** The honeypot: hidden from people, filled in by form-filling robots. */
export const HONEYPOT_CONTROL = 'website';
export const DESCRIPTION = 'description';
export const MAX_SUBJECT_LENGTH = 1000;

const ATTRIBUTE_PREFIX = 'attribute:';

const HINTS: Partial<Record<string, string>> = {
  datetime: 'A date and time in UTC.',
  integer: 'A whole number, like 42.',
  number: 'A number, with a point for decimals, like 12.5.',
  object: 'JSON: an object, like {"key": "value"}.',
  array: 'JSON: a list, like ["a", "b"] or [1, 2].',
  any: 'JSON: any value, like "text", 42, true or {"key": "value"}.',
};

const FORMAT_INPUTS: Record<string, FieldInput> = { email: 'email', uri: 'url', date: 'date', 'date-time': 'datetime' };
const TYPE_INPUTS: Record<string, FieldInput> = { integer: 'integer', number: 'number', boolean: 'checkbox', object: 'json', array: 'json', any: 'json' };

/**
 * The form of a workflow: one field per declared attribute, in declaration order, after a
 * `description` field unless `description` is declared (then the declaration decides its type).
 * On a workflow that handles sensitive data and does not declare `description`, there is no
 * description field: the attribute would be refused as undeclared.
 */
export function requestForm(definition: Pick<WorkflowDefinition, 'name' | 'attributes' | 'sensitive_data'>): RequestForm {
  const declared = Object.entries(definition.attributes).map(([name, declaration]) => declaredField(name, declaration));
  const describe = !Object.hasOwn(definition.attributes, DESCRIPTION) && !definition.sensitive_data;
  const description: FormField = { attribute: DESCRIPTION, control: controlOf(DESCRIPTION), label: 'Description', input: 'textarea', required: false, choices: [], hint: null };
  return { title: definition.name, fields: describe ? [description, ...declared] : declared };
}

/** A checkbox always posts a value (unticked is false), so a required boolean asks nothing of the person. */
function declaredField(name: string, declaration: AttributeDeclaration): FormField {
  const field = { attribute: name, control: controlOf(name), label: labelOf(name) };
  if (declaration.enum) return { ...field, input: 'select', required: declaration.required === true, choices: declaration.enum.map(choiceOf), hint: null };
  const input = (declaration.format && FORMAT_INPUTS[declaration.format]) || TYPE_INPUTS[declaration.type] || 'text';
  const hint = HINTS[input === 'json' ? declaration.type : input] ?? null;
  return { ...field, input, required: declaration.required === true && input !== 'checkbox', choices: [], hint };
}

function controlOf(attribute: string): string {
  return ATTRIBUTE_PREFIX + attribute;
}

/** `customer_email` reads as "Customer email"; any other name is shown as declared. */
function labelOf(attribute: string): string {
  const spaced = attribute.replace(/[_-]+/g, ' ').trim() || attribute;
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

function choiceOf(value: unknown): FormChoice {
  const text = JSON.stringify(value);
  return { value: text, label: typeof value === 'string' ? value : text };
}

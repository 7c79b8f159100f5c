import type { ValidationProblem } from '../../../shared/errors/app-error.js';
import { pointer } from '../../../shared/json/json-pointer.js';
import { nestsDeeperThan } from '../../../shared/json/json-text.js';
import { type FormField, HONEYPOT_CONTROL, MAX_SUBJECT_LENGTH, type RequestForm, SUBJECT_CONTROL } from './request-form.js';

/** The nesting limit of a JSON body elsewhere in the service (webhook, cases API) holds for a JSON field too. */
export const MAX_JSON_NESTING = 64;

/** What a form post says: its fields' texts by posted name (the first of each name counts). */
export type PostedForm = ReadonlyMap<string, string>;

export interface FieldError {
  /** The field's posted name (`subject`, or an attribute's control); null for the form as a whole. */
  control: string | null;
  message: string;
}

export type Submission =
  | { kind: 'valid'; subject: string | null; attributes: { value: Record<string, unknown>; text: string } }
  /** `attributes`: what the fields without an error make, for the schema's checks of them. */
  | { kind: 'invalid'; errors: FieldError[]; attributes: { value: Record<string, unknown>; text: string } }
  /** The honeypot was filled in: a robot, answered as if it had succeeded. */
  | { kind: 'spam' };

type Converted = { kind: 'value'; json: string } | { kind: 'omitted' } | { kind: 'error'; message: string };

const MALFORMED_TEXT = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]|\u0000/;
const CANNOT_STORE = 'cannot hold a NUL character or an unpaired surrogate';

/**
 * Reads a posted form into a case's subject and attributes, each value converted to its declared
 * type: attributes are built as JSON text (numbers keep the digits typed, JSON fields their exact
 * text), as every source stores them. The attribute schema checks come after, as for any source.
 */
export function readSubmission(form: RequestForm, posted: PostedForm): Submission {
  if ((posted.get(HONEYPOT_CONTROL) ?? '') !== '') return { kind: 'spam' };
  const errors: FieldError[] = [];
  const subject = (posted.get(SUBJECT_CONTROL) ?? '').trim();
  if (subject.length > MAX_SUBJECT_LENGTH) errors.push({ control: SUBJECT_CONTROL, message: `Use at most ${MAX_SUBJECT_LENGTH} characters.` });
  else if (MALFORMED_TEXT.test(subject)) errors.push({ control: SUBJECT_CONTROL, message: `The subject ${CANNOT_STORE}.` });
  const members: string[] = [];
  for (const field of form.fields) {
    const converted = convert(field, posted.get(field.control) ?? '');
    if (converted.kind === 'error') errors.push({ control: field.control, message: converted.message });
    else if (converted.kind === 'value') members.push(`${JSON.stringify(field.attribute)}:${converted.json}`);
  }
  const text = `{${members.join(',')}}`;
  const attributes = { value: JSON.parse(text) as Record<string, unknown>, text };
  if (errors.length) return { kind: 'invalid', errors, attributes };
  return { kind: 'valid', subject: subject === '' ? null : subject, attributes };
}

function convert(field: FormField, raw: string): Converted {
  if (field.input === 'checkbox') return { kind: 'value', json: raw === '' ? 'false' : 'true' };
  if (raw.trim() === '') return field.required ? { kind: 'error', message: 'Fill in this field: it is required.' } : { kind: 'omitted' };
  if (MALFORMED_TEXT.test(raw)) return { kind: 'error', message: `This field ${CANNOT_STORE}.` };
  switch (field.input) {
    case 'integer':
      return integerText(raw.trim());
    case 'number':
      return numberText(raw.trim());
    case 'datetime':
      return dateTimeText(raw.trim());
    case 'select':
      return field.choices.some((choice) => choice.value === raw) ? { kind: 'value', json: raw } : { kind: 'error', message: 'Choose one of the listed options.' };
    case 'json':
      return jsonText(raw.trim());
    case 'textarea':
      // Browsers post every line end of a textarea as CRLF, whatever was typed.
      return { kind: 'value', json: JSON.stringify(raw.replace(/\r\n/g, '\n')) };
    case 'email':
    case 'url':
    case 'date':
      return { kind: 'value', json: JSON.stringify(raw.trim()) };
    default:
      return { kind: 'value', json: JSON.stringify(raw) };
  }
}

/** A whole number exactly as typed (any length), written as JSON: no `+`, no leading zeros. */
function integerText(raw: string): Converted {
  const match = /^([+-]?)(\d+)$/.exec(raw);
  if (!match) return { kind: 'error', message: 'Enter a whole number, like 42.' };
  return { kind: 'value', json: `${match[1] === '-' ? '-' : ''}${match[2]!.replace(/^0+(?=\d)/, '')}` };
}

/** A decimal number exactly as typed (digits and exponent kept), written as JSON. */
function numberText(raw: string): Converted {
  const match = /^([+-]?)(\d*)(?:\.(\d*))?([eE][+-]?\d+)?$/.exec(raw);
  if (!match || (match[2] === '' && !match[3])) return { kind: 'error', message: 'Enter a number, like 12.5.' };
  const [, sign, whole, fraction, exponent] = match;
  const integer = whole!.replace(/^0+(?=\d)/, '') || '0';
  return { kind: 'value', json: `${sign === '-' ? '-' : ''}${integer}${fraction ? `.${fraction}` : ''}${exponent ?? ''}` };
}

/**
 * A date and time: what a `datetime-local` control posts (no offset) is read as UTC, the form
 * says so; a full RFC 3339 time typed where the control is plain text is kept as typed.
 */
function dateTimeText(raw: string): Converted {
  const local = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(:\d{2}(?:\.\d+)?)?$/.exec(raw);
  if (local) return { kind: 'value', json: JSON.stringify(`${local[1]}T${local[2]}${local[3] ?? ':00'}Z`) };
  return { kind: 'value', json: JSON.stringify(raw) };
}

/** JSON typed into a field, under the rules of a JSON body: valid, nested at most 64 levels, storable text. */
function jsonText(raw: string): Converted {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { kind: 'error', message: 'Enter valid JSON, like {"key": "value"} or [1, 2].' };
  }
  if (nestsDeeperThan(raw, MAX_JSON_NESTING)) return { kind: 'error', message: `The JSON nests deeper than ${MAX_JSON_NESTING} levels.` };
  if (holdsMalformedText(value)) return { kind: 'error', message: `The JSON ${CANNOT_STORE}.` };
  return { kind: 'value', json: raw };
}

function holdsMalformedText(value: unknown): boolean {
  if (typeof value === 'string') return MALFORMED_TEXT.test(value);
  if (Array.isArray(value)) return value.some(holdsMalformedText);
  if (value !== null && typeof value === 'object') return Object.entries(value).some(([key, member]) => MALFORMED_TEXT.test(key) || holdsMalformedText(member));
  return false;
}

const FORMAT_HINTS: Partial<Record<FormField['input'], string>> = {
  email: 'Enter an email address, like name@example.com.',
  url: 'Enter a full web address, like https://example.com/page.',
  date: 'Enter a date, like 2025-01-31.',
  datetime: 'Enter a date and time, like 2025-01-31T09:30.',
};

/**
 * The attribute schema's problems, each next to the field of the attribute it is about (its
 * JSON Pointer, or one below it); one about no field (the attributes as a whole) is the form's.
 */
export function fieldErrors(form: RequestForm, problems: readonly ValidationProblem[]): FieldError[] {
  return problems.map((problem) => {
    const field = form.fields.find((f) => problem.path === pointer('', f.attribute) || problem.path.startsWith(`${pointer('', f.attribute)}/`));
    if (!field) return { control: null, message: sentence(problem.error) };
    const hint = /format/.test(problem.error) ? FORMAT_HINTS[field.input] : undefined;
    if (hint) return { control: field.control, message: hint };
    if (problem.path !== pointer('', field.attribute)) return { control: field.control, message: sentence(`At ${problem.path}: ${problem.error}`) };
    return { control: field.control, message: sentence(problem.error.startsWith('must') ? `This field ${problem.error}` : problem.error) };
  });
}

function sentence(text: string): string {
  const capitalized = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(capitalized) ? capitalized : `${capitalized}.`;
}

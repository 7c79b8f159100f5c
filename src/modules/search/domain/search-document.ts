import { pointer } from '../../../shared/json/json-pointer.js';
import { identifiersOf } from './search-query.js';

/** Where a searched text comes from; also its relevance, in this order. */
export const SEARCH_FIELDS = ['subject', 'attributes', 'email', 'comment'] as const;
export type SearchField = (typeof SEARCH_FIELDS)[number];

/** One searched value: the subject, one attribute value, one message's subject or text, one comment. */
export interface SearchText {
  field: SearchField;
  /** JSON Pointer of the value within its field (`/order/id` in the attributes, `/replies/12/text`); `""` for the subject. */
  pointer: string;
  text: string;
}

/** What a workflow version says about searching its attributes. */
export interface AttributeSearchRules {
  sensitive: boolean;
  /** Declared attributes' `searchable`, when set. */
  searchable: ReadonlyMap<string, boolean>;
}

export interface SearchedCase {
  subject: string;
  /** The stored attributes' JSON text. */
  attributes: string;
  /** A case that came by email holds its message in the `email` attribute: searched as a message, not as an attribute. */
  cameByEmail: boolean;
}

/**
 * A case's texts are bounded, whatever its size (a case may hold 1 MB of attributes): the first
 * MAX_VALUE_CHARS of each value, the first MAX_TEXTS values, MAX_DOCUMENT_CHARS in all. What lies
 * beyond is not found by a search.
 */
export const MAX_VALUE_CHARS = 10_000;
export const MAX_TEXTS = 1_000;
export const MAX_DOCUMENT_CHARS = 100_000;

/** The message fields searched, of an email case's `email` attribute and of a reply. */
const MESSAGE_FIELDS = ['subject', 'text'] as const;

/**
 * Every text a search reads of one case, in relevance order (subject, attributes, then the
 * messages and comments as given), within the bounds above. An attribute is left out when its
 * declaration says `"searchable": false`, and on a workflow with sensitive data unless it says
 * `"searchable": true`; the rule of a top-level attribute covers everything nested in it.
 * Strings and numbers are searched (numbers as written), at any depth; keys, booleans and null
 * are not.
 */
export function caseSearchTexts(searched: SearchedCase, rules: AttributeSearchRules, messages: readonly SearchText[]): SearchText[] {
  const texts = new BoundedTexts();
  texts.add({ field: 'subject', pointer: '', text: searched.subject });
  const attributes = parseKeepingNumbers(searched.attributes);
  const email = searched.cameByEmail ? attributes.get('email') : undefined;
  for (const [name, value] of attributes) {
    if (email !== undefined && name === 'email') continue;
    if (!(rules.searchable.get(name) ?? !rules.sensitive)) continue;
    texts.addValues('attributes', pointer('', name), value);
  }
  if (email !== undefined) for (const text of messageTexts(email, pointer('', 'email'))) texts.add(text);
  for (const message of messages) texts.add(message);
  return texts.all;
}

/** The searched fields of one email message (`email` attribute or reply), as texts of the field `email`. */
export function messageTexts(message: unknown, at: string): SearchText[] {
  if (!(message instanceof Map)) return [];
  return MESSAGE_FIELDS.flatMap((name) => {
    const value = message.get(name);
    return typeof value === 'string' ? [{ field: 'email' as const, pointer: pointer(at, name), text: value }] : [];
  });
}

/** A reply's fields (parsed JSON) as message texts. */
export function replyTexts(reply: { id: number; subject: string | null; text: string | null }): SearchText[] {
  const fields = new Map<string, unknown>([['subject', reply.subject], ['text', reply.text]]);
  return messageTexts(fields, pointer('/replies', reply.id));
}

class BoundedTexts {
  readonly all: SearchText[] = [];
  private chars = 0;

  add(text: SearchText): boolean {
    if (this.all.length >= MAX_TEXTS || this.chars >= MAX_DOCUMENT_CHARS) return false;
    const kept = wholeCharacters(text.text, Math.min(MAX_VALUE_CHARS, MAX_DOCUMENT_CHARS - this.chars));
    if (kept.trim() === '') return true;
    this.all.push({ ...text, text: kept });
    this.chars += kept.length;
    return true;
  }

  /** Every string and number below `value`, depth first, until the bounds are reached. */
  addValues(field: SearchField, at: string, value: unknown): boolean {
    if (typeof value === 'string') return this.add({ field, pointer: at, text: value });
    if (value instanceof NumberText) return this.add({ field, pointer: at, text: value.text });
    const entries = value instanceof Map ? [...value] : Array.isArray(value) ? value.map((item, i) => [String(i), item] as const) : [];
    for (const [key, item] of entries) if (!this.addValues(field, pointer(at, key), item)) return false;
    return true;
  }
}

/** A JSON number as its text: what was sent, never rounded (`12345678901234567890` stays whole). */
class NumberText {
  constructor(readonly text: string) {}
}

/** Objects as Maps (a key like `__proto__` is plain data), numbers as their text. */
function parseKeepingNumbers(json: string): Map<string, unknown> {
  const parsed: unknown = JSON.parse(json, function revive(this: unknown, _key: string, value: unknown, context?: { source?: string }) {
    if (typeof value === 'number') return new NumberText(context?.source ?? String(value));
    if (value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof NumberText)) return new Map(Object.entries(value));
    return value;
  });
  return parsed instanceof Map ? parsed : new Map();
}

/**
 * How much of the subject a refused document keeps (see reducedTexts). Lowercased and decomposed
 * (NFD), one UTF-16 unit is at most 9 bytes (a Hangul syllable becomes three jamo), so no word or
 * identifier of 100 units reaches Postgres' 2,047-byte lexeme, and its vector is a few kB.
 */
export const REDUCED_SUBJECT_CHARS = 100;

/**
 * What a case's document holds when Postgres refused the whole of it: the start of its subject
 * alone. Not an empty document, since a case is looked for by its subject first; nothing longer,
 * since whatever was refused is not known, and the subject is text Postgres already stored
 * (well-formed, no NUL), kept too short for any limit of a tsvector.
 */
export function reducedTexts(texts: readonly SearchText[]): SearchText[] {
  return texts.filter((t) => t.field === 'subject').map((t) => ({ ...t, text: wholeCharacters(t.text, REDUCED_SUBJECT_CHARS) }));
}

/** A searched text with its identifiers (identifiersOf), found once for the snippets' fields and the vectors alike. */
export interface IdentifiedText extends SearchText {
  identifiers: string[];
}

export function identified(texts: readonly SearchText[]): IdentifiedText[] {
  return texts.map((t) => ({ ...t, identifiers: identifiersOf(t.text) }));
}

/** The texts of one relevance field, joined, and its identifiers: what the field's part of the vectors is built of. */
export interface FieldText {
  text: string;
  identifiers: string[];
}

/** Each field's texts joined by line breaks, with their identifiers each once: those of the joined text, as no identifier spans a line break. */
export function fieldTexts(texts: readonly IdentifiedText[]): Record<SearchField, FieldText> {
  const joined = (field: SearchField): FieldText => {
    const ofField = texts.filter((t) => t.field === field);
    return { text: ofField.map((t) => t.text).join('\n'), identifiers: [...new Set(ofField.flatMap((t) => t.identifiers))] };
  };
  return { subject: joined('subject'), attributes: joined('attributes'), email: joined('email'), comment: joined('comment') };
}

/**
 * The first `units` UTF-16 units of `text`, one fewer where the cut would split a surrogate pair:
 * half a pair is not text, and Postgres refuses the document (and the batch it is written with).
 */
function wholeCharacters(text: string, units: number): string {
  const splitsPair = units < text.length && /[\uD800-\uDBFF]/.test(text[units - 1] ?? '');
  return text.slice(0, splitsPair ? units - 1 : units);
}

/**
 * `q` of the case lists, parsed into terms (docs/search.md). The parser decides what each piece
 * of text is; Postgres only ever receives the pieces as bound parameters of functions that read
 * them as plain text (phraseto_tsquery), or as lexemes this parser restricted to letters, digits
 * and the joiners `-`, `_`, `.`, `/` (identifiers and prefixes). So no character of `q` is ever
 * query syntax, of SQL or of Postgres' tsquery.
 */

export const MAX_QUERY_CHARS = 256;
export const MAX_QUERY_TERMS = 16;
/** Letters or digits before the `*` of a prefix. */
export const MIN_PREFIX_CHARS = 2;

/** Words (stemmed, accent- and case-insensitive) or a quoted phrase: plain text for phraseto_tsquery. */
export interface TextTerm {
  kind: 'text';
  text: string;
  exclude: boolean;
}

/** A number or identifier (`42`, `A-1043`), matched whole as one lexeme. */
export interface IdentifierTerm {
  kind: 'identifier';
  lexeme: string;
  exclude: boolean;
}

/** `inv*`: a word prefix (stemmed like a word) or an identifier prefix (`ord-99*`, taken as it is). */
export interface PrefixTerm {
  kind: 'prefix';
  stem: string;
  identifier: boolean;
  exclude: boolean;
}

export type SearchTerm = TextTerm | IdentifierTerm | PrefixTerm;

export type ParsedQuery = { ok: true; terms: SearchTerm[] } | { ok: false; error: string };

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
/** Runs of letters and digits joined by single joiners: the text an identifier lexeme is made of. */
export const IDENTIFIER_TOKEN = /[\p{L}\p{N}]+(?:[-_./][\p{L}\p{N}]+)*/gu;
const WHOLE_IDENTIFIER = /^[\p{L}\p{N}]+(?:[-_./][\p{L}\p{N}]+)*$/u;
const DIGIT = /\p{N}/u;
const EDGE_PUNCTUATION = /^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu;

/**
 * How identifiers are compared, in the documents and in queries alike: lower case, accents
 * dropped (what `unaccent` does for words).
 */
export function identifierLexeme(token: string): string {
  return token.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '');
}

/**
 * The identifiers of a text: its tokens that hold a digit, as lexemes, each once. A token longer
 * than `q` may be is left out: no search could ask for it, and Postgres refuses a lexeme over
 * 2,047 bytes, which would fail the whole batch of documents it is written with.
 */
export function identifiersOf(text: string): string[] {
  const found = new Set<string>();
  for (const [token] of text.matchAll(IDENTIFIER_TOKEN)) if (token.length <= MAX_QUERY_CHARS && DIGIT.test(token)) found.add(identifierLexeme(token));
  return [...found];
}

/**
 * Splits `q` into terms: whitespace separates them; `"..."` is one phrase (an unclosed quote
 * runs to the end); a leading `-` excludes; a trailing `*` makes a prefix. An empty or blank
 * `q` has no terms (no filter). Errors: too long, too many terms, a prefix too short, nothing
 * but exclusions (which would read every case of the organization).
 */
export function parseSearchQuery(q: string): ParsedQuery {
  if (q.length > MAX_QUERY_CHARS) return { ok: false, error: `q must be at most ${MAX_QUERY_CHARS} characters` };
  const terms: SearchTerm[] = [];
  for (const piece of pieces(q)) {
    const term = toTerm(piece);
    if (typeof term === 'string') return { ok: false, error: term };
    if (term) terms.push(term);
  }
  if (terms.length > MAX_QUERY_TERMS) return { ok: false, error: `q must have at most ${MAX_QUERY_TERMS} terms (words, prefixes, phrases)` };
  if (terms.length > 0 && terms.every((t) => t.exclude)) return { ok: false, error: 'q needs at least one word that must match, besides the excluded ones' };
  return { ok: true, terms };
}

interface Piece {
  text: string;
  quoted: boolean;
  exclude: boolean;
}

function* pieces(q: string): Generator<Piece> {
  let i = 0;
  while (i < q.length) {
    while (i < q.length && /\s/u.test(q[i]!)) i++;
    if (i >= q.length) return;
    let exclude = false;
    if (q[i] === '-' && i + 1 < q.length && !/\s/u.test(q[i + 1]!)) {
      exclude = true;
      i++;
    }
    if (q[i] === '"') {
      const end = q.indexOf('"', i + 1);
      const stop = end === -1 ? q.length : end;
      yield { text: q.slice(i + 1, stop), quoted: true, exclude };
      i = stop + 1;
      continue;
    }
    const start = i;
    while (i < q.length && !/\s/u.test(q[i]!)) i++;
    yield { text: q.slice(start, i), quoted: false, exclude };
  }
}

/** A term, undefined for a piece without any letter or digit (punctuation alone), or an error. */
function toTerm({ text, quoted, exclude }: Piece): SearchTerm | string | undefined {
  if (!LETTER_OR_DIGIT.test(text)) return undefined;
  if (quoted) return { kind: 'text', text, exclude };
  if (text.endsWith('*')) {
    const stem = text.replace(/\*+$/u, '').replace(EDGE_PUNCTUATION, '');
    const letters = [...stem].filter((c) => LETTER_OR_DIGIT.test(c)).length;
    if (letters < MIN_PREFIX_CHARS || !WHOLE_IDENTIFIER.test(stem)) {
      return `a prefix needs at least ${MIN_PREFIX_CHARS} letters or digits before its *, and only letters, digits and - _ . / (at "${text.slice(0, 40)}")`;
    }
    const identifier = DIGIT.test(stem) || /[-_./]/u.test(stem);
    return { kind: 'prefix', stem: identifier ? identifierLexeme(stem) : stem, identifier, exclude };
  }
  const core = text.replace(EDGE_PUNCTUATION, '');
  if (WHOLE_IDENTIFIER.test(core) && DIGIT.test(core)) return { kind: 'identifier', lexeme: identifierLexeme(core), exclude };
  return { kind: 'text', text, exclude };
}

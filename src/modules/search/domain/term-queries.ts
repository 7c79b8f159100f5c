import type { SearchTerm } from './search-query.js';

/**
 * How Postgres turns one term into a tsquery: `text` through phraseto_tsquery (plain text, any
 * character: it has no syntax), `stemmed` through to_tsquery and `lexeme` through the tsquery
 * type's input, both only with a lexeme this module quoted, of letters, digits and joiners.
 */
export interface TermInput {
  kind: 'text' | 'stemmed' | 'lexeme';
  value: string;
  /** For an identifier: plain text whose phrase ts_headline can mark (it splits `A-1043` as the parser does). */
  highlight: string | null;
}

export function termInput(term: SearchTerm): TermInput {
  switch (term.kind) {
    case 'text':
      return { kind: 'text', value: term.text, highlight: null };
    case 'identifier':
      return { kind: 'lexeme', value: quotedLexeme(term.lexeme), highlight: term.lexeme };
    case 'prefix':
      return { kind: term.identifier ? 'lexeme' : 'stemmed', value: `${quotedLexeme(term.stem)}:*`, highlight: null };
  }
}

/** A lexeme in tsquery syntax: quoted, with quotes and backslashes escaped (the parser allows neither, this holds anyway). */
function quotedLexeme(lexeme: string): string {
  return `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

/** A term's tsquery as Postgres printed it (empty for a term of stop words only), and the highlight query's. */
export interface TermQuery {
  exclude: boolean;
  query: string;
  highlight: string;
  /** Every lexeme of the term is in a large share of the documents (Postgres's column statistics say which). */
  common: boolean;
}

/** The tsqueries of a search, as text Postgres printed, combined: only `&`, `|`, `!` and parentheses are added. */
export interface SearchQueries {
  /** Every term: the positive ones and none of the excluded. */
  all: string;
  /**
   * The positive terms that are not common (all of them when every one is): what the GIN index
   * is read with. ANDing a word of nearly every document in the index reads that word's whole
   * posting tree, however few documents the other words leave; `all` is then checked on the rows
   * the index found.
   */
  driver: string;
  /** The positive terms only: where they match tells a case's relevance tier. */
  positive: string;
  /** Any positive term: which values hold a match, for snippets. */
  anyPositive: string;
  /** anyPositive, plus identifiers as the parser splits them, for ts_headline to mark. */
  highlight: string;
}

/** The search's queries; null when no positive term has a lexeme (stop words only): then nothing matches. */
export function combineTermQueries(terms: readonly TermQuery[]): SearchQueries | null {
  const positiveTerms = terms.filter((t) => !t.exclude && t.query !== '');
  const positive = positiveTerms.map((t) => `( ${t.query} )`);
  if (!positive.length) return null;
  const uncommon = positiveTerms.filter((t) => !t.common).map((t) => `( ${t.query} )`);
  const excluded = terms.filter((t) => t.exclude && t.query !== '').map((t) => `!( ${t.query} )`);
  const highlights = terms.filter((t) => !t.exclude && t.highlight !== '').map((t) => `( ${t.highlight} )`);
  return {
    all: [...positive, ...excluded].join(' & '),
    driver: (uncommon.length ? uncommon : positive).join(' & '),
    positive: positive.join(' & '),
    anyPositive: positive.join(' | '),
    highlight: [...positive, ...highlights].join(' | '),
  };
}

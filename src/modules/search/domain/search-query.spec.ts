import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { identifiersOf, MAX_QUERY_CHARS, MAX_QUERY_TERMS, parseSearchQuery, type SearchTerm } from './search-query.js';
import { combineTermQueries, termInput } from './term-queries.js';

const terms = (q: string): SearchTerm[] => {
  const parsed = parseSearchQuery(q);
  assert.ok(parsed.ok, `q=${q}: ${parsed.ok ? '' : parsed.error}`);
  return parsed.terms;
};
const problem = (q: string): string => {
  const parsed = parseSearchQuery(q);
  assert.ok(!parsed.ok, `q=${q} is refused`);
  return parsed.error;
};

describe('parseSearchQuery', () => {
  it('reads words, phrases, exclusions, prefixes and identifiers', () => {
    assert.deepEqual(terms('Müller  "late payment" -refund inv* A-1043 42 ORD-99*'), [
      { kind: 'text', text: 'Müller', exclude: false },
      { kind: 'text', text: 'late payment', exclude: false },
      { kind: 'text', text: 'refund', exclude: true },
      { kind: 'prefix', stem: 'inv', identifier: false, exclude: false },
      { kind: 'identifier', lexeme: 'a-1043', exclude: false },
      { kind: 'identifier', lexeme: '42', exclude: false },
      { kind: 'prefix', stem: 'ord-99', identifier: true, exclude: false },
    ]);
  });

  it('takes an identifier without the punctuation around it, an unclosed quote to the end, and a lone - or * as nothing', () => {
    assert.deepEqual(terms('(ORD-99812), "open phrase'), [
      { kind: 'identifier', lexeme: 'ord-99812', exclude: false },
      { kind: 'text', text: 'open phrase', exclude: false },
    ]);
    assert.deepEqual(terms('word - * "" -""'), [{ kind: 'text', text: 'word', exclude: false }]);
    assert.deepEqual(terms('-"spam mail" ham'), [
      { kind: 'text', text: 'spam mail', exclude: true },
      { kind: 'text', text: 'ham', exclude: false },
    ]);
  });

  it('has no terms for an empty or blank q', () => {
    assert.deepEqual(terms(''), []);
    assert.deepEqual(terms(' \t\n'), []);
  });

  it('refuses q too long, with too many terms, a prefix too short or of other characters, or exclusions only', () => {
    assert.match(problem('a'.repeat(MAX_QUERY_CHARS + 1)), /at most 256 characters/);
    assert.equal(terms('a'.repeat(MAX_QUERY_CHARS)).length, 1);
    assert.match(problem(Array.from({ length: MAX_QUERY_TERMS + 1 }, (_, i) => `w${i}`).join(' ')), /at most 16 terms/);
    assert.equal(terms(Array.from({ length: MAX_QUERY_TERMS }, (_, i) => `w${i}`).join(' ')).length, MAX_QUERY_TERMS);
    assert.match(problem('i*'), /prefix/);
    assert.match(problem("it's*"), /prefix/);
    assert.match(problem('-spam -ham'), /at least one word/);
  });

  it('makes identifiers lower case without accents, as the documents keep them', () => {
    assert.deepEqual(identifiersOf('Réf ÉTÉ-2026 and A-1043, x42; plain words İ9'), ['ete-2026', 'a-1043', 'x42', 'i9']);
  });

  it('leaves out identifiers longer than a q may be', () => {
    assert.deepEqual(identifiersOf(`${'9'.repeat(MAX_QUERY_CHARS + 1)} ${'8'.repeat(MAX_QUERY_CHARS)}`), ['8'.repeat(MAX_QUERY_CHARS)]);
  });
});

describe('the tsqueries of a search (property)', () => {
  /** Lexemes and prefixes go to Postgres quoted: a quote or backslash inside would end the quote. */
  const quotedSafely = (value: string) => /^'[^'\\]*'(:\*)?$/.test(value);

  it('gives Postgres every piece of any q either as plain text or as a lexeme it cannot leave', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300, unit: 'grapheme-composite' }), (q) => {
        const parsed = parseSearchQuery(q);
        if (!parsed.ok) return;
        assert.ok(parsed.terms.length <= MAX_QUERY_TERMS);
        for (const term of parsed.terms) {
          const input = termInput(term);
          if (input.kind !== 'text') assert.ok(quotedSafely(input.value), `${JSON.stringify(q)} gives ${input.value}`);
          if (input.highlight !== null) assert.match(input.highlight, /^[\p{L}\p{N}]+([-_./][\p{L}\p{N}]+)*$/u);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('combines only what Postgres printed: with no positive lexeme nothing can match', () => {
    assert.equal(combineTermQueries([{ exclude: false, query: '', highlight: '', common: false }, { exclude: true, query: "'spam'", highlight: '', common: false }]), null);
    assert.deepEqual(combineTermQueries([
      { exclude: false, query: "'late' <-> 'pay'", highlight: '', common: false },
      { exclude: true, query: "'spam'", highlight: '', common: false },
      { exclude: false, query: "'a-1043'", highlight: "'-1043'", common: false },
    ]), {
      all: "( 'late' <-> 'pay' ) & ( 'a-1043' ) & !( 'spam' )",
      driver: "( 'late' <-> 'pay' ) & ( 'a-1043' )",
      positive: "( 'late' <-> 'pay' ) & ( 'a-1043' )",
      anyPositive: "( 'late' <-> 'pay' ) | ( 'a-1043' )",
      highlight: "( 'late' <-> 'pay' ) | ( 'a-1043' ) | ( '-1043' )",
    });
  });

  it('reads the index with the uncommon positive terms only, and with all of them when every one is common', () => {
    const track = { exclude: false, query: "'track'", highlight: '', common: true };
    const rare = { exclude: false, query: "'kwbcd'", highlight: '', common: false };
    const spam = { exclude: true, query: "'spam'", highlight: '', common: false };
    assert.equal(combineTermQueries([track, rare, spam])!.driver, "( 'kwbcd' )");
    assert.equal(combineTermQueries([track, rare, spam])!.all, "( 'track' ) & ( 'kwbcd' ) & !( 'spam' )");
    assert.equal(combineTermQueries([track, { ...track, query: "'parcel'" }, spam])!.driver, "( 'track' ) & ( 'parcel' )");
  });
});

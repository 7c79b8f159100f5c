import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { type AttributeSearchRules, caseSearchTexts, fieldTexts, identified, MAX_DOCUMENT_CHARS, MAX_VALUE_CHARS, REDUCED_SUBJECT_CHARS, reducedTexts, replyTexts, SEARCH_FIELDS } from './search-document.js';
import { identifiersOf } from './search-query.js';

const open: AttributeSearchRules = { sensitive: false, searchable: new Map() };

describe('caseSearchTexts', () => {
  it('reads the subject, then every string and number of the attributes at any depth, numbers as written', () => {
    const texts = caseSearchTexts({ subject: 'Refund', attributes: '{"a":{"b":[1.50, "x", true, null, {"c/d":12345678901234567891}]},"__proto__":"kept"}', cameByEmail: false }, open, []);
    assert.deepEqual(texts, [
      { field: 'subject', pointer: '', text: 'Refund' },
      { field: 'attributes', pointer: '/a/b/0', text: '1.50' },
      { field: 'attributes', pointer: '/a/b/1', text: 'x' },
      { field: 'attributes', pointer: '/a/b/4/c~1d', text: '12345678901234567891' },
      { field: 'attributes', pointer: '/__proto__', text: 'kept' },
    ]);
  });

  it('leaves out attributes declared not searchable, and on sensitive workflows all but those declared searchable', () => {
    const attributes = '{"public":"p","hidden":"h","undeclared":"u"}';
    const declared = new Map([['public', true], ['hidden', false]]);
    const pointers = (rules: AttributeSearchRules) => caseSearchTexts({ subject: 's', attributes, cameByEmail: false }, rules, []).map((t) => t.pointer);
    assert.deepEqual(pointers({ sensitive: false, searchable: declared }), ['', '/public', '/undeclared']);
    assert.deepEqual(pointers({ sensitive: true, searchable: declared }), ['', '/public']);
  });

  it("searches an email case's message (subject and text) as email, after the attributes, then the replies", () => {
    const attributes = '{"email":{"subject":"Parcel","text":"It broke","html":"<p>It broke</p>","from":{"address":"a@example.com"}},"order":"ORD-1"}';
    const texts = caseSearchTexts({ subject: 'Parcel', attributes, cameByEmail: true }, open, replyTexts({ id: 7, subject: 'Re: Parcel', text: null }));
    assert.deepEqual(texts.map((t) => [t.field, t.pointer]), [
      ['subject', ''],
      ['attributes', '/order'],
      ['email', '/email/subject'],
      ['email', '/email/text'],
      ['email', '/replies/7/subject'],
    ]);
  });

  it('is bounded whatever the case holds', () => {
    const huge = JSON.stringify({ long: 'x'.repeat(MAX_VALUE_CHARS * 3), many: Array.from({ length: 5000 }, (_, i) => `value ${i} ${'y'.repeat(100)}`) });
    const texts = caseSearchTexts({ subject: 'Big', attributes: huge, cameByEmail: false }, open, []);
    assert.equal(texts[1]!.text.length, MAX_VALUE_CHARS);
    assert.ok(texts.reduce((n, t) => n + t.text.length, 0) <= MAX_DOCUMENT_CHARS);
  });

  it('never cuts a value between the halves of a surrogate pair', () => {
    const value = `${'x'.repeat(MAX_VALUE_CHARS - 1)}😀`;
    const texts = caseSearchTexts({ subject: 'Emoji', attributes: JSON.stringify({ value }), cameByEmail: false }, open, []);
    assert.equal(texts[1]!.text, 'x'.repeat(MAX_VALUE_CHARS - 1));
  });
});

describe('reducedTexts', () => {
  it("keeps the subject alone, cut on a whole character, too short for any identifier of it to pass a lexeme's 2,047 bytes", () => {
    // A Hangul syllable with a final consonant: three jamo, 9 bytes, once decomposed.
    const kept = `${'각'.repeat(REDUCED_SUBJECT_CHARS - 2)}1`;
    const texts = caseSearchTexts({ subject: `${kept}😀 and more`, attributes: '{"a":"x"}', cameByEmail: false }, open, replyTexts({ id: 1, subject: 'Re', text: 'y' }));
    const reduced = reducedTexts(texts);
    assert.deepEqual(reduced, [{ field: 'subject', pointer: '', text: kept }]);
    assert.ok(identifiersOf(reduced[0]!.text).every((lexeme) => Buffer.byteLength(lexeme) <= 2_047));
  });
});

describe('fieldTexts (property)', () => {
  it("gives each field the identifiers of its joined text, found once per text", () => {
    const text = fc.oneof(fc.string({ maxLength: 40, unit: 'grapheme-composite' }), fc.stringMatching(/^[A-Za-z0-9\-_./ \n]{0,40}$/));
    const searched = fc.record({ field: fc.constantFrom(...SEARCH_FIELDS), pointer: fc.constant(''), text });
    fc.assert(
      fc.property(fc.array(searched, { maxLength: 8 }), (texts) => {
        const byField = fieldTexts(identified(texts));
        for (const field of SEARCH_FIELDS) {
          const joined = texts.filter((t) => t.field === field).map((t) => t.text).join('\n');
          assert.deepEqual(byField[field], { text: joined, identifiers: identifiersOf(joined) });
        }
      }),
      { numRuns: 2000 },
    );
  });
});

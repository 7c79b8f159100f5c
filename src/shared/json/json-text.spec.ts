import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { isWellFormedText } from '../http/well-formed-text.js';
import { hasUnstorableEscape } from './json-text.js';

describe('hasUnstorableEscape', () => {
  it('finds \\u0000 and unpaired surrogate escapes, in keys and values, and nothing else (as jsonb decides, checked against psql)', () => {
    const refused = ['{"a":"x\\u0000y"}', '{"a\\u0000":1}', '["\\ud800"]', '["\\udc00"]', '["\\ud800x"]', '["\\ud800\\u0041"]', '["\\ud800","\\udc00"]', '["\\udc00\\ud800"]', '["\\ud83d😀"]', '["\\\\\\u0000"]'];
    const stored = ['{"a":"plain"}', '["\\ud83d\\ude00"]', '["\\uD83D\\uDE00"]', '["\\\\u0000"]', '["\\\\ud800"]', '["\\u0041\\n\\"\\\\"]', '["😀"]', '[]'];
    for (const text of refused) assert.equal(hasUnstorableEscape(text), true, text);
    for (const text of stored) assert.equal(hasUnstorableEscape(text), false, text);
  });

  it('agrees with the well-formed-text rule on any string JSON.stringify escapes (it escapes NUL and lone surrogates, and writes pairs as they are)', () => {
    const units = fc.oneof(fc.constantFrom('\u0000', '\ud800', '\udbff', '\udc00', '\udfff', '\ud83d\ude00', '\\', '"', 'u', 'a'), fc.string({ unit: 'binary', maxLength: 3 }));
    fc.assert(
      fc.property(fc.array(units, { maxLength: 12 }), (parts) => {
        const value = parts.join('');
        assert.equal(hasUnstorableEscape(JSON.stringify({ [value]: value })), !isWellFormedText(value));
      }),
    );
  });
});

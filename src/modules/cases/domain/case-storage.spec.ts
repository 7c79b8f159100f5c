import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_BODY_BYTES } from '../../../shared/http/json-body-parser.js';
import { CASE_STORAGE_BYTES, tooLargeToStore } from './case-storage.js';

describe('case storage bound', () => {
  it('counts UTF-8 bytes of the JSON text: 1 MiB fits, one more byte does not, nor one 2-byte character in place of one byte', () => {
    const of = (fill: string) => `{"a":"${fill}"}`;
    const room = CASE_STORAGE_BYTES - of('').length;
    assert.equal(tooLargeToStore(of('x'.repeat(room))), false);
    assert.equal(tooLargeToStore(of('x'.repeat(room + 1))), true);
    assert.equal(tooLargeToStore(of(`${'x'.repeat(room - 1)}é`)), true);
  });

  it('is never below the HTTP body limit, so a webhook or API body within its 1 MB always fits and its refusal stays the body\'s 413', () => {
    assert.ok(MAX_BODY_BYTES <= CASE_STORAGE_BYTES);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mergedPatch } from './case-changes.sql.js';

describe('mergedPatch', () => {
  it('is null when no patch came, so the stored attributes are kept as they are', () => {
    assert.equal(mergedPatch([]), null);
  });

  it('joins the patches in order, so a later value of a key wins when Postgres reads the text as jsonb', () => {
    assert.equal(mergedPatch(['{"a":1,"b":{"c":2}}', '{"a":3}']), '{"a":1,"b":{"c":2},"a":3}');
  });

  it('keeps every value exactly as written, whatever its number form', () => {
    assert.equal(mergedPatch(['{"n":1.50}', ' { "m" : 12345678901234567890 } ']), '{"n":1.50,"m" : 12345678901234567890}');
  });

  it('skips empty patches', () => {
    assert.equal(mergedPatch(['{}', '{"a":1}', ' {  } ']), '{"a":1}');
    assert.equal(mergedPatch(['{}']), '{}');
  });

  it('refuses a text that is not an object', () => {
    assert.throws(() => mergedPatch(['[1]']), /JSON object/);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WebhookDedup } from './webhook-dedup.js';

const keyOf = (key: string, body: string) => new WebhookDedup({ key, window_seconds: 60 }).keyOf(body);

describe('WebhookDedup.keyOf', () => {
  it('is the exact JSON text of a string or an integer at the pointer', () => {
    assert.equal(keyOf('/id', '{"id": "evt_1"}'), '"evt_1"');
    assert.equal(keyOf('/id', '{"id":42}'), '42');
    assert.equal(keyOf('/id', '{"id": -7 , "x": 1}'), '-7');
    assert.equal(keyOf('/id', '{"id": 12345678901234567891}'), '12345678901234567891', 'an integer beyond 2^53 keeps its digits');
    assert.equal(keyOf('/id', '{"id": "\\u0041"}'), '"\\u0041"', 'escapes are kept as sent');
    assert.notEqual(keyOf('/id', '{"id": "7"}'), keyOf('/id', '{"id": 7}'));
  });

  it('follows nested members, array indexes and escaped tokens', () => {
    assert.equal(keyOf('/event/id', '{"event": {"type": "x", "id": "e-9"}}'), '"e-9"');
    assert.equal(keyOf('/items/1/sku', '{"items": [{"sku": "a"}, {"sku": "b"}]}'), '"b"');
    assert.equal(keyOf('/a~1b/c~0d', '{"a/b": {"c~d": 5}}'), '5');
    assert.equal(keyOf('/event/id', '{"id": "top", "event": {"id": "inner"}}'), '"inner"');
    assert.equal(keyOf('/id', '{"nested": {"id": "deep"}, "id": "top"}'), '"top"', 'a member of the object itself, not a nested one');
  });

  it('takes the last of a repeated member, as the parsed attributes do', () => {
    assert.equal(keyOf('/id', '{"id": "first", "id": "second"}'), '"second"');
  });

  it('is undefined without a value at the pointer', () => {
    assert.equal(keyOf('/id', '{"other": "x"}'), undefined);
    assert.equal(keyOf('/event/id', '{"event": "flat"}'), undefined);
    assert.equal(keyOf('/items/2', '{"items": [1, 2]}'), undefined);
    assert.equal(keyOf('/items/0', '{"items": []}'), undefined);
    assert.equal(keyOf('/items/-', '{"items": [1]}'), undefined);
    assert.equal(keyOf('/items/01', '{"items": [1, 2]}'), undefined);
  });

  it('is undefined for a value that is not a string or an integer', () => {
    for (const value of ['1.5', '1e3', '1.0', 'true', 'false', 'null', '{"a": 1}', '[1]']) {
      assert.equal(keyOf('/id', `{"id": ${value}}`), undefined, value);
    }
  });
});

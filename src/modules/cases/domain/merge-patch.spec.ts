import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyMergePatch } from './merge-patch.js';

describe('applyMergePatch (RFC 7396)', () => {
  it('removes a key for null, merges objects into objects, replaces anything else', () => {
    const target = { a: 1, b: { c: 2, d: [1, 2] }, e: 'x', f: [1] };
    const { merged, set, removed } = applyMergePatch(target, { a: null, b: { c: null, g: true }, e: { h: 1 }, f: [2], missing: null });
    assert.deepEqual(merged, { b: { d: [1, 2], g: true }, e: { h: 1 }, f: [2] });
    assert.deepEqual(set, { b: { d: [1, 2], g: true }, e: { h: 1 }, f: [2] });
    assert.deepEqual(removed, ['a']);
    assert.deepEqual(target, { a: 1, b: { c: 2, d: [1, 2] }, e: 'x', f: [1] }, 'the target is left as it was');
  });

  it('keeps __proto__ a member like any other', () => {
    const patch = JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
    const { merged } = applyMergePatch({}, patch);
    assert.deepEqual(Object.keys(merged), ['__proto__']);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { changedParts, changedPointers, changedSettings, MAX_CHANGED_POINTERS, MAX_POINTER_CHARS } from './audit-summary.js';

describe('changedPointers', () => {
  it('points at the deepest member or item that differs, escaping ~ and /', () => {
    const before = { name: 'A', attributes: { 'a/b': { type: 'string' }, 'c~d': { type: 'number' } }, statuses: ['Triage', 'Open'] };
    const after = { name: 'A', attributes: { 'a/b': { type: 'integer' }, 'c~d': { type: 'number' } }, statuses: ['Triage', 'Waiting'] };
    assert.deepEqual(changedPointers(before, after), ['/attributes/a~1b/type', '/statuses/1']);
  });

  it('points at an array whose length changed, at a member added or removed, and at nothing when equal', () => {
    assert.deepEqual(changedPointers({ s: [1], x: 1 }, { s: [1, 2], y: 1 }), ['/s', '/x', '/y']);
    assert.deepEqual(changedPointers({ a: { b: [1] } }, { a: { b: [1] } }), []);
    assert.deepEqual(changedPointers('a', 'b'), ['']);
  });
});

describe('changedParts', () => {
  it('lists at most MAX_CHANGED_POINTERS parts and counts the rest', () => {
    const many = (value: number) => Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`a${i}`, value]));
    const { changed, changed_omitted } = changedParts(many(1), many(2));
    assert.equal(changed.length, MAX_CHANGED_POINTERS);
    assert.equal(changed_omitted, 5_000 - MAX_CHANGED_POINTERS);
    assert.deepEqual(changedParts({ a: 1 }, { a: 2 }), { changed: ['/a'] });
  });

  it('shortens a pointer longer than MAX_POINTER_CHARS to the nearest part containing it, once', () => {
    const long = 'k'.repeat(MAX_POINTER_CHARS);
    const before = { automations: { Triage: [{ arguments: { [long]: 1, [`${long}2`]: 1 } }] } };
    const after = { automations: { Triage: [{ arguments: { [long]: 2, [`${long}2`]: 2 } }] } };
    assert.deepEqual(changedParts(before, after), { changed: ['/automations/Triage/0/arguments'] });
    assert.deepEqual(changedParts({ [long]: 1 }, { [long]: 2 }), { changed: [''] });
  });
});

describe('changedSettings', () => {
  it('names each setting that differs with its from and to, a missing one as null', () => {
    assert.deepEqual(changedSettings({ a: 1, b: [1], c: 'x' }, { a: 1, b: [2], d: 3 }), { b: { from: [1], to: [2] }, c: { from: 'x', to: null }, d: { from: null, to: 3 } });
    assert.deepEqual(changedSettings({ a: null }, {}), {});
  });
});

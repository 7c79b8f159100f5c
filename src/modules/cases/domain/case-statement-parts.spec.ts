import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CaseStatementParts } from './case-statement-parts.js';

describe('CaseStatementParts', () => {
  it('gives the parts in name order, whatever order the modules registered them in, so every instance prepares the same text', () => {
    const parts = new CaseStatementParts();
    parts.add({ name: 'report_change' });
    parts.add({ name: 'outbox' });
    assert.deepEqual(parts.all().map((part) => part.name), ['outbox', 'report_change']);
  });

  it('refuses a second part of the same name', () => {
    const parts = new CaseStatementParts();
    parts.add({ name: 'outbox' });
    assert.throws(() => parts.add({ name: 'outbox' }), /two case statement parts are named "outbox"/);
  });

  it('refuses a part that comes after the statements were built, which would be missing from them', () => {
    const parts = new CaseStatementParts();
    parts.all();
    assert.throws(() => parts.add({ name: 'late' }), /came after the case statements were built/);
  });
});

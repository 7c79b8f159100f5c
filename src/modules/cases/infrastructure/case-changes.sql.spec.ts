import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Case, type CaseEvent } from '../domain/case.js';
import { briefEvents, caseProps, runProps, TRIAGE_RULES as RULES } from '../domain/case.spec-fixtures.js';
import { changeBatches, mergedPatch } from './case-changes.sql.js';

const CASE = caseProps();

/** Each batch's events as `type` or `type:runId`. */
const brief = (batches: CaseEvent[][]) => batches.map(briefEvents);

describe('changeBatches', () => {
  it('stores a chain of two moves in two statements: the run that made a move ends in its statement, the next run starts in the following one', () => {
    const subject = Case.restore(CASE, [runProps()]);
    const open = subject.takeRun(5)!;
    subject.mergeAttributes('{"stage":"received"}', ['stage'], { kind: 'automation' });
    subject.moveTo('Triage', RULES, { kind: 'automation' });
    open.finish('succeeded');
    const triage = subject.takeStartedRun()!;
    subject.moveTo('Closed', RULES, { kind: 'automation' });
    triage.finish('succeeded');
    assert.deepEqual(brief(changeBatches(subject.pullEvents())), [
      ['run_started:5', 'attributes_changed', 'status_changed', 'run_finished:5'],
      ['run_started:new', 'status_changed', 'run_finished:new'],
    ]);
  });

  it('gives every status change a statement of its own, and what follows the last one too', () => {
    const subject = Case.restore(CASE, []);
    subject.moveTo('Closed', RULES, { kind: 'user', userId: 1 });
    subject.moveTo('Open', RULES, { kind: 'user', userId: 1 });
    subject.mergeAttributes('{"a":1}', ['a'], { kind: 'user', userId: 1 });
    const events = subject.pullEvents();
    assert.deepEqual(
      changeBatches(events).map((batch) => batch.map((e) => e.type)),
      [['status_changed'], ['status_changed'], ['attributes_changed']],
    );
  });
});

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

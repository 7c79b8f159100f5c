import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_STATUSES, type StatusRules } from '../../workflows/domain/status-rules.js';
import { type Actor, Case, type CaseProps } from './case.js';
import { MergeRefusedError } from './case.errors.js';
import { MERGED_OUTCOME, mergeCases } from './case-merge.js';

const PERSON: Actor = { kind: 'user', userId: 4 };
const RULES: StatusRules = { statuses: new Set([...DEFAULT_STATUSES, 'Triage']), defaultOutcome: 'Handled', hasRun: (status) => status === 'Closed' };

function stored(id: number, overrides: Partial<CaseProps> = {}): Case {
  const at = new Date(Date.UTC(2026, 10, 29));
  return Case.restore({ id, organizationId: 1, workflowId: 2, workflowVersion: 3, subject: 'S', status: 'Open', outcome: null, mode: 'live', source: 'Email', attributes: '{}', priority: 'normal', assigneeId: null, teamId: null, createdAt: at, updatedAt: at, ...overrides });
}

describe('mergeCases', () => {
  it('records merged_into, then closes the merged case as Merged (its Closed run starting), and records merged_from on the target', () => {
    const [merged, into] = [stored(10, { status: 'Triage' }), stored(11)];
    mergeCases(merged, into, RULES, PERSON, new Map());
    assert.deepEqual([merged.status, merged.outcome], ['Closed', MERGED_OUTCOME]);
    const events = merged.pullEvents();
    assert.deepEqual(events.slice(0, 2).map((e) => e.type), ['noted', 'status_changed']);
    assert.deepEqual(events[0], { type: 'noted', actor: PERSON, note: 'merged_into', data: { case_id: 11 } });
    assert.equal(events[1]!.type === 'status_changed' && events[1].startsRun, true);
    assert.deepEqual(into.pullEvents(), [{ type: 'noted', actor: PERSON, note: 'merged_from', data: { case_id: 10 } }]);
    assert.deepEqual([into.status, into.outcome], ['Open', null]);
  });

  it('closes an already Closed case again, with the outcome Merged', () => {
    const merged = stored(10, { status: 'Closed', outcome: 'Handled' });
    mergeCases(merged, stored(11), RULES, PERSON, new Map());
    assert.equal(merged.outcome, MERGED_OUTCOME);
  });

  for (const [what, merged, into, pointers] of [
    ['into itself', stored(10), stored(10), new Map<number, number>()],
    ['across workflows', stored(10), stored(11, { workflowId: 9 }), new Map<number, number>()],
    ['a test case into a live one', stored(10, { mode: 'test' }), stored(11), new Map<number, number>()],
    ['a case already merged', stored(10), stored(11), new Map([[10, 12]])],
    ['into a merged case', stored(10), stored(11), new Map([[11, 12]])],
  ] as const) {
    it(`refuses to merge ${what}, changing nothing`, () => {
      assert.throws(() => mergeCases(merged, into, RULES, PERSON, pointers), MergeRefusedError);
      assert.deepEqual([merged.pullEvents(), into.pullEvents()], [[], []]);
      assert.equal(merged.status, 'Open');
    });
  }
});

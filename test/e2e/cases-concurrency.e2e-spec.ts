import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  assertCaseResponse,
  type CasesFixture,
  createdCaseId,
  getCase,
  givenCasesWorkflow,
  patchCase,
  statusChanges,
  statusDefinition,
  timeline,
} from '../support/cases-api.js';
import { closeDb, db, startTestApp, type TestApp } from '../support/test-app.js';

const TARGETS = Array.from({ length: 20 }, (_, i) => ['Triage', 'Waiting on customer', 'Closed'][i % 3]!);
const outcomeOf = (status: string) => (status === 'Closed' ? 'Handled' : null);

describe('concurrent status changes to one case', () => {
  let t: TestApp;
  before(async () => { t = await startTestApp(); });
  after(async () => { await t.close(); await closeDb(); });

  /** Sends the 20 PATCHes at once; each answers 200 with the case as its own change left it. */
  async function patchAllAtOnce(f: CasesFixture, caseId: number) {
    const answers = await Promise.all(TARGETS.map((status) => patchCase(f, caseId, { status })));
    answers.forEach((res, i) => {
      const c = assertCaseResponse(res, 200);
      assert.deepEqual([c.status, c.outcome], [TARGETS[i], outcomeOf(TARGETS[i]!)]);
    });
  }

  /** The status changes form one unbroken chain from Open, in id order, and the case ends where the chain ends. */
  async function assertOneChain(f: CasesFixture, caseId: number) {
    const changes = await statusChanges(t, f.org, caseId);
    assert.equal(changes.length, TARGETS.length);
    changes.forEach((change, i) => {
      const previous = changes[i - 1];
      assert.equal(change.from, previous ? previous.to : 'Open', `event ${i} starts where the previous one ended`);
      if (previous) assert.ok(change.id > previous.id, 'ids ascend');
      assert.equal(change.outcome, outcomeOf(change.to as string));
    });
    assert.deepEqual(changes.map((c) => c.to).sort(), [...TARGETS].sort(), 'each request is recorded once');
    const last = changes.at(-1)!;
    const final = assertCaseResponse(await getCase(f, caseId), 200);
    assert.deepEqual([final.status, final.outcome], [last.to, outcomeOf(last.to as string)]);
    return last.to as string;
  }

  it('applies 20 simultaneous PATCHes one after the other', async () => {
    const f = await givenCasesWorkflow(t);
    const caseId = await createdCaseId(f);
    await patchAllAtOnce(f, caseId);
    await assertOneChain(f, caseId);
  });

  it('leaves exactly one unfinished run, for the final status, and records the others as superseded', async () => {
    const wait = [{ wait: { seconds: 86_400 } }];
    const f = await givenCasesWorkflow(t, statusDefinition({ automations: { Triage: wait, 'Waiting on customer': wait, Closed: wait } }));
    const caseId = await createdCaseId(f);
    await patchAllAtOnce(f, caseId);
    const finalStatus = await assertOneChain(f, caseId);
    const { rows } = await db().query<{ status: string; state: string }>('SELECT status, state FROM workflow_runs WHERE case_id = $1 ORDER BY id', [caseId]);
    assert.equal(rows.length, TARGETS.length, 'every status change started a run');
    const unfinished = rows.filter((r) => ['pending', 'running', 'waiting'].includes(r.state));
    assert.deepEqual(unfinished.map((r) => r.status), [finalStatus]);
    assert.equal(rows.filter((r) => r.state === 'superseded').length, TARGETS.length - 1);
    const superseded = (await timeline(t, f.org, caseId)).filter((e) => e.type === 'run_superseded');
    assert.equal(superseded.length, TARGETS.length - 1);
  });
});

/**
 * A workflow acting on its SLA events (sla.md section 3): the definition's `on_sla` steps run as
 * a run of the case when one of its clocks warns or breaches, started in the transaction that
 * fires the timer, so once whatever the number of workers; test runs show them. A 24x7 calendar
 * and a resolution target of seconds keep it short.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually } from '../support/automation-helpers.js';
import { type CasesFixture, createdCaseId, givenCasesWorkflow, statusDefinition } from '../support/cases-api.js';
import { closeDb, db, startTestApp, type TestApp } from '../support/test-app.js';
import { RetentionPurges } from '../../src/modules/retention/application/retention.ports.js';
import { SlaSweep } from '../../src/modules/sla/application/sla-sweep.service.js';
import { patchCase } from '../support/cases-api.js';

const ON_SLA = { breached: [{ set_attributes: { escalated: true } }, { set_status: 'Triage' }] };
const POLICY = { calendar: 'Always', targets: { normal: { resolution: 'PT2S' } }, pause_statuses: [], warn_before: 'PT1S' };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface RunRow {
  on_sla: string | null;
  status: string;
  state: string;
}

async function runsOf(caseId: number): Promise<RunRow[]> {
  return (await db().query<RunRow>('SELECT on_sla, status, state FROM workflow_runs WHERE case_id = $1 ORDER BY id', [caseId])).rows;
}

describe('on_sla steps', () => {
  let t: TestApp;
  let f: CasesFixture;

  before(async () => {
    t = await startTestApp({ env: { ROLE: 'api' } });
    f = await givenCasesWorkflow(t, statusDefinition({ attributes: { escalated: { type: 'boolean' } }, on_sla: ON_SLA }));
    const admin = { token: f.org.adminToken };
    assert.equal((await t.request('PUT', '/api/admin/v1/calendars/Always', { ...admin, body: { time_zone: 'UTC', hours: '24x7' } })).status, 200);
    const policy = await t.request('PUT', `/api/admin/v1/workflows/${f.workflowId}/sla`, { ...admin, body: POLICY });
    assert.equal(policy.status, 200, policy.text);
  });

  after(async () => {
    await t.close();
    await closeDb();
  });

  it('the workflow answers its on_sla steps as saved', async () => {
    const res = await t.request('GET', `/api/admin/v1/workflows/${f.workflowId}`, { token: f.org.adminToken });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.workflow.on_sla, ON_SLA);
  });

  it('a test run with on_sla runs those steps first, with their paths in the definition, then follows the move', async () => {
    const res = await t.request('POST', `/api/admin/v1/workflows/${f.workflowId}/test_runs`, { token: f.org.adminToken, body: { on_sla: 'breached', status: 'Open' } });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.test_run.steps.map((step: { path: string; outcome: string }) => [step.path, step.outcome]), [
      ['/on_sla/breached/0', 'change'],
      ['/on_sla/breached/1', 'move'],
    ]);
    assert.deepEqual(res.body.test_run.final, { status: 'Triage', outcome: null, attributes: { escalated: true } });
    const bad = await t.request('POST', `/api/admin/v1/workflows/${f.workflowId}/test_runs`, { token: f.org.adminToken, body: { on_sla: 'late' } });
    assert.equal(bad.status, 422, bad.text);
    assert.equal(typeof bad.body.error, 'string');
  });

  it('two workers running: a breach runs the on_sla steps once, as a run of the case', async () => {
    const workers = [await startTestApp({ env: { ROLE: 'worker' } }), await startTestApp({ env: { ROLE: 'worker' } })];
    try {
      const caseId = await createdCaseId(f);
      await eventually('the on_sla run succeeded', async () => ((await runsOf(caseId)).some((run) => run.on_sla === 'breached' && run.state === 'succeeded') ? true : undefined), { timeoutMs: 20_000 });
      await sleep(2500); // both workers' later passes find nothing more to fire
      const runs = await runsOf(caseId);
      assert.deepEqual(runs.filter((run) => run.on_sla !== null), [{ on_sla: 'breached', status: 'Open', state: 'succeeded' }], 'one run of the breached steps; no warning steps are declared');
      const stored = (await db().query<{ status: string; attributes: Record<string, unknown> }>('SELECT status, attributes FROM cases WHERE id = $1', [caseId])).rows[0]!;
      assert.deepEqual([stored.status, stored.attributes.escalated], ['Triage', true]);
      const traces = await t.request('GET', `/api/admin/v1/cases/${caseId}/runs`, { token: f.org.adminToken });
      assert.equal(traces.status, 200, traces.text);
      const slaRun = traces.body.runs.find((run: { on_sla: string | null }) => run.on_sla === 'breached');
      assert.deepEqual(slaRun.steps.map((step: { path: string }) => step.path), ['/on_sla/breached/0', '/on_sla/breached/1']);
      const started = (await db().query<{ data: { on_sla?: string } }>("SELECT data FROM case_events WHERE case_id = $1 AND type = 'run_started' ORDER BY id", [caseId])).rows;
      assert.equal(started.filter((row) => row.data.on_sla === 'breached').length, 1);
      await purgedAfterRetention(caseId);
    } finally {
      for (const worker of workers) await worker.close();
    }
  });

  /**
   * Its fired timers, moved 31 days back with the case and its history, are purged, and a sweep
   * over the case changed again does not bring them back to fire a second time.
   */
  async function purgedAfterRetention(caseId: number): Promise<void> {
    const back = "interval '31 days'";
    await db().query(`UPDATE sla_timers SET fire_at = fire_at - ${back}, fired_at = fired_at - ${back}, period_started_at = period_started_at - ${back}, due_at = due_at - ${back} WHERE case_id = $1`, [caseId]);
    await db().query(`UPDATE cases SET created_at = created_at - ${back} WHERE id = $1`, [caseId]);
    await db().query(`UPDATE case_events SET created_at = created_at - ${back} WHERE case_id = $1`, [caseId]);
    await db().query(`UPDATE sla_policies SET created_at = created_at - interval '32 days' WHERE workflow_id = $1`, [f.workflowId]);
    const timers = async () => (await db().query<{ n: number }>('SELECT count(*)::int AS n FROM sla_timers WHERE case_id = $1', [caseId])).rows[0]!.n;
    assert.ok((await timers()) > 0);
    let purged = 0;
    for (let batch = -1; batch !== 0; purged += batch) batch = (await t.app.get(RetentionPurges).purgeFiredSlaTimers(500)).purged.sla_timers ?? 0;
    assert.ok(purged >= 2, `purged ${purged}`);
    assert.equal(await timers(), 0);
    assert.equal((await patchCase(f, caseId, { status: 'Waiting on customer' })).status, 200);
    const sweep = t.app.get(SlaSweep);
    for (let pass = 0; pass < 5; pass += 1) await sweep.run();
    assert.equal(await timers(), 0, 'no purged timer came back');
    assert.equal((await runsOf(caseId)).filter((run) => run.on_sla !== null).length, 1);
  }
});

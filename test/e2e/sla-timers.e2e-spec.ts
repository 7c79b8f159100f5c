/**
 * SLA timers (sla.md section 3, the first part): a case created through the cases API under a
 * workflow's SLA policy gets a warning and a breach timer per clock, kept in Postgres; passes of
 * the worker's sweep, run at once, fire each due timer exactly once; a clock paused or met has
 * none left to fire. A firing writes a timeline row, a subscription event and a notification of
 * each watcher, once, with two workers running, or late after an outage. A 24x7 calendar and
 * targets of seconds keep it short.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { CaseRepository } from '../../src/modules/cases/domain/case.repository.js';
import { CaseSlaService } from '../../src/modules/sla/application/case-sla.service.js';
import { SlaSweep } from '../../src/modules/sla/application/sla-sweep.service.js';
import { eventually, type Receiver, startReceiver } from '../support/automation-helpers.js';
import { anotherWorkflow, type CasesFixture, createdCaseId, givenCasesWorkflow, patchCase } from '../support/cases-api.js';
import { fromDashboard, givenPerson, type Session } from '../support/people-helpers.js';
import { waitingBackends } from '../support/table-locks.js';
import { closeDb, db, startTestApp, type TestApp } from '../support/test-app.js';

const POLICY = { calendar: 'Always', targets: { normal: { first_response: 'PT2S', resolution: 'PT3S' } }, pause_statuses: ['Waiting on customer'], warn_before: 'PT1S' };

interface TimerRow {
  clock: string;
  kind: string;
  fire_at: Date;
  fired_at: Date | null;
  created_at: Date;
}

async function timersOf(caseId: number): Promise<TimerRow[]> {
  const { rows } = await db().query<TimerRow>(
    `SELECT t.clock, t.kind, t.fire_at, t.fired_at, c.created_at FROM sla_timers t JOIN cases c ON c.id = t.case_id
     WHERE t.case_id = $1 ORDER BY t.clock, t.kind`,
    [caseId],
  );
  return rows;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('SLA timers', () => {
  let t: TestApp;
  let f: CasesFixture;
  let sweep: SlaSweep;

  before(async () => {
    // The API role runs no scheduled pass: the test runs the sweep itself, as many workers would.
    t = await startTestApp({ env: { ROLE: 'api' } });
    sweep = t.app.get(SlaSweep);
    f = await givenCasesWorkflow(t);
    const admin = { token: f.org.adminToken };
    assert.equal((await t.request('PUT', '/api/admin/v1/calendars/Always', { ...admin, body: { time_zone: 'Europe/Berlin', hours: '24x7' } })).status, 200);
    const policy = await t.request('PUT', `/api/admin/v1/workflows/${f.workflowId}/sla`, { ...admin, body: POLICY });
    assert.equal(policy.status, 200, policy.text);
  });

  after(async () => {
    await t.close();
    await closeDb();
  });

  it('a case created through the cases API gets a warning and a breach timer per clock of its priority (normal), at its due times', async () => {
    const caseId = await createdCaseId(f);
    const timers = await trackedAtCreation(caseId, 4);
    assert.deepEqual(timers.map((row) => [row.clock, row.kind, row.fire_at.getTime() - row.created_at.getTime(), row.fired_at]), [
      ['first_response', 'breach', 2000, null],
      ['first_response', 'warning', 1000, null],
      ['resolution', 'breach', 3000, null],
      ['resolution', 'warning', 2000, null],
    ]);
  });

  /**
   * Runs passes as of the case's creation until its timers exist: the change feed shows a case
   * once every older write transaction on the server ended, and a pass as of then fires nothing.
   */
  async function trackedAtCreation(caseId: number, count: number): Promise<TimerRow[]> {
    const createdAt = (await db().query<{ created_at: Date }>('SELECT created_at FROM cases WHERE id = $1', [caseId])).rows[0]!.created_at;
    return eventually(`the timers of case ${caseId}`, async () => {
      await sweep.run(createdAt);
      const rows = await timersOf(caseId);
      return rows.length >= count ? rows : undefined;
    }, { timeoutMs: 30_000 });
  }

  it('the admin case representation\'s sla: each clock of the case\'s priority with its due time and state; paused in a pause status; no policy, no clocks', async () => {
    const caseId = await createdCaseId(f);
    const read = async () => (await t.app.get(CaseRepository).find(f.org.id, f.workflowId, caseId))!;
    const slaOf = t.app.get(CaseSlaService);
    const created = await read();
    const after = (ms: number) => new Date(created.createdAt.getTime() + ms);
    const running = (dueMs: number) => ({ due_at: after(dueMs).toISOString(), state: 'running', met_at: null, breached_at: null, paused: false });
    const calendar = { name: 'Always', time_zone: 'Europe/Berlin' };
    assert.deepEqual(await slaOf.of(created, after(500)), { policy: true, calendar, first_response: running(2000), resolution: running(3000) });
    assert.deepEqual(await slaOf.of({ ...created, priority: 'urgent' }, after(500)), { policy: true, calendar }, 'no target at that priority');
    assert.equal((await patchCase(f, caseId, { status: 'Waiting on customer' })).status, 200);
    const waiting = await slaOf.of(await read(), after(60_000));
    assert.deepEqual(waiting.first_response, { due_at: null, state: 'paused', met_at: null, breached_at: null, paused: true });
    const other = await anotherWorkflow(f);
    assert.deepEqual(await slaOf.of((await t.app.get(CaseRepository).find(f.org.id, other.workflowId, await createdCaseId(other)))!), { policy: false });
  });

  it('passes running at once fire each due timer exactly once, and later passes fire it no more', async () => {
    const caseId = await createdCaseId(f);
    const [first] = await trackedAtCreation(caseId, 4);
    await sleep(first!.created_at.getTime() + 3200 - Date.now());
    const fired = (await Promise.all([sweep.run(), sweep.run(), sweep.run()])).flat().filter((timer) => timer.caseId === caseId);
    assert.deepEqual(fired.map((timer) => `${timer.clock} ${timer.kind}`).sort(), ['first_response breach', 'first_response warning', 'resolution breach', 'resolution warning']);
    for (const timer of fired) assert.ok(timer.firedAt >= timer.fireAt, 'fired at or after its time');
    assert.ok((await timersOf(caseId)).every((row) => row.fired_at !== null));
    assert.deepEqual((await sweep.run()).filter((timer) => timer.caseId === caseId), []);
  });

  it('a pass locks the cases of the timers it fires in id order across organizations, whatever order their timers come in', async () => {
    const other = await givenCasesWorkflow(t);
    const admin = { token: other.org.adminToken };
    assert.equal((await t.request('PUT', '/api/admin/v1/calendars/Always', { ...admin, body: { time_zone: 'Europe/Berlin', hours: '24x7' } })).status, 200);
    assert.equal((await t.request('PUT', `/api/admin/v1/workflows/${other.workflowId}/sla`, { ...admin, body: POLICY })).status, 200);
    const lower = await createdCaseId(f);
    const higher = await createdCaseId(other);
    await trackedAtCreation(lower, 4);
    await trackedAtCreation(higher, 4);
    // The higher case's organization comes first in the batch: its timers are due before any other.
    await db().query(`UPDATE sla_timers SET fire_at = CASE WHEN case_id = $1 THEN timestamptz '2000-01-01' ELSE timestamptz '2000-01-02' END WHERE case_id = ANY($2::bigint[])`, [higher, [lower, higher]]);
    const holder = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM cases WHERE id = $1 FOR UPDATE', [lower]);
      const pass = sweep.run();
      await eventually('the pass waits for the lower case', async () => ((await waitingBackends()) === 1 ? true : undefined), { timeoutMs: 10_000 });
      const unlocked = await db().query<{ id: string }>('SELECT id FROM cases WHERE id = $1 FOR UPDATE SKIP LOCKED', [higher]);
      assert.deepEqual(unlocked.rows.map((row) => Number(row.id)), [higher], 'the higher case is not locked before the lower one');
      await holder.query('ROLLBACK');
      const fired = (await pass).filter((timer) => timer.caseId === lower || timer.caseId === higher);
      assert.deepEqual(fired.map((timer) => timer.caseId).sort((a, b) => a - b), [lower, lower, lower, lower, higher, higher, higher, higher]);
    } finally {
      await holder.end();
    }
  });

  it('the admin list\'s sla=at_risk holds a case whose warning time passed before its due time, sla=breached one past its due time', async () => {
    const caseId = await createdCaseId(f);
    const [first] = await trackedAtCreation(caseId, 4);
    const listed = async (sla: string) => {
      const res = await t.request('GET', `/api/admin/v1/cases?workflow_id=${f.workflowId}&sla=${sla}&limit=100`, { token: f.org.adminToken });
      assert.equal(res.status, 200, res.text);
      return res.body.cases.some((c: { id: number }) => c.id === caseId);
    };
    await sleep(first!.created_at.getTime() + 1300 - Date.now());
    assert.deepEqual([await listed('at_risk'), await listed('breached')], [true, false], 'first response warned at 1 s, due at 2 s');
    await sleep(first!.created_at.getTime() + 3300 - Date.now());
    assert.deepEqual([await listed('at_risk'), await listed('breached')], [false, true]);
    assert.equal((await t.request('GET', '/api/admin/v1/cases?sla=late', { token: f.org.adminToken })).status, 422);
  });

  describe('under an hour-long policy', () => {
    let slow: CasesFixture;
    before(async () => {
      slow = await anotherWorkflow(f);
      const policy = await t.request('PUT', `/api/admin/v1/workflows/${slow.workflowId}/sla`, { token: f.org.adminToken, body: { ...POLICY, targets: { normal: { first_response: 'PT1H', resolution: 'PT2H' } }, warn_before: 'PT30M' } });
      assert.equal(policy.status, 200, policy.text);
    });

    it('a clock paused (a pause status) or met (Closed) has no timer left to fire', async () => {
      const waiting = await createdCaseId(slow);
      const closed = await createdCaseId(slow);
      await trackedAtCreation(waiting, 4);
      await trackedAtCreation(closed, 4);
      assert.equal((await patchCase(slow, waiting, { status: 'Waiting on customer' })).status, 200);
      assert.equal((await patchCase(slow, closed, { status: 'Closed' })).status, 200);
      await eventually('no timer left', async () => {
        await sweep.run();
        return (await timersOf(waiting)).length + (await timersOf(closed)).length === 0 ? true : undefined;
      }, { timeoutMs: 15_000 });
    });

    it('the admin list sorts by due_at: the soonest running clock first, a case with no running clock last', async () => {
      const [older, newer, waiting] = [await createdCaseId(slow), await createdCaseId(slow), await createdCaseId(slow)];
      for (const id of [older, newer, waiting]) await trackedAtCreation(id, 4);
      assert.equal((await patchCase(slow, waiting, { status: 'Waiting on customer' })).status, 200);
      await eventually('the paused case has no timer left', async () => {
        await sweep.run();
        return (await timersOf(waiting)).length === 0 ? true : undefined;
      }, { timeoutMs: 15_000 });
      const order = async (sort: string) => {
        const res = await t.request('GET', `/api/admin/v1/cases?workflow_id=${slow.workflowId}&sort=${sort}&limit=100`, { token: f.org.adminToken });
        assert.equal(res.status, 200, res.text);
        return res.body.cases.map((c: { id: number }) => c.id).filter((id: number) => [older, newer, waiting].includes(id));
      };
      assert.deepEqual(await order('due_at'), [older, newer, waiting]);
      assert.deepEqual(await order('-due_at'), [waiting, newer, older]);
      const page = await t.request('GET', `/api/admin/v1/cases?workflow_id=${slow.workflowId}&sort=due_at&limit=1`, { token: f.org.adminToken });
      const next = await t.request('GET', `/api/admin/v1/cases?workflow_id=${slow.workflowId}&sort=due_at&limit=100&cursor=${encodeURIComponent(page.body.next_cursor)}`, { token: f.org.adminToken });
      assert.equal(next.status, 200, next.text);
      assert.ok(!next.body.cases.some((c: { id: number }) => c.id === page.body.cases[0].id), 'the next page starts after the first');
    });

    it('deleting the policy drops the timers not fired yet', async () => {
      const pending = await createdCaseId(slow);
      await trackedAtCreation(pending, 4);
      assert.equal((await t.request('DELETE', `/api/admin/v1/workflows/${slow.workflowId}/sla`, { token: f.org.adminToken })).status, 204);
      assert.deepEqual(await timersOf(pending), []);
    });
  });

  /** What a firing wrote about the case: its timeline rows, its events to subscriptions, its notifications. */
  async function effectsOf(caseId: number) {
    const rows = (await db().query<{ type: string; data: { clock: string; due_at: string; late_ms: number } }>(
      "SELECT type, data FROM case_events WHERE case_id = $1 AND type IN ('sla_warning', 'sla_breached') ORDER BY id", [caseId])).rows;
    const events = (await db().query<{ type: string; details: unknown }>(
      "SELECT type, details FROM outbox_events WHERE case_id = $1 AND type IN ('case.sla_warning', 'case.sla_breached') ORDER BY id", [caseId])).rows;
    const notified = (await db().query<{ user_id: string; kind: string; summary: string }>(
      "SELECT user_id, kind, summary FROM notification_items WHERE case_id = $1 AND kind IN ('sla_warning', 'sla_breached') ORDER BY id", [caseId])).rows;
    return { rows, events, notified };
  }

  /** A case its watcher follows, under a subscription wanting the SLA events. */
  async function watchedCase(): Promise<{ caseId: number; watcher: Session }> {
    const caseId = await createdCaseId(f);
    const watcher = await givenPerson(t, f.org.id, 'agent');
    assert.equal((await fromDashboard(t, watcher, 'PUT', `/api/admin/v1/cases/${caseId}/watchers/me`)).status, 204);
    return { caseId, watcher };
  }

  describe('firing', () => {
    let receiver: Receiver;
    before(async () => {
      receiver = await startReceiver(() => ({ status: 204 }));
      const sub = await t.request('POST', '/api/admin/v1/subscriptions', { token: f.org.adminToken, body: { url: `${receiver.url}/hooks`, events: ['case.sla_warning', 'case.sla_breached'] } });
      assert.equal(sub.status, 201, sub.text);
    });
    after(() => receiver.close());

    it('two workers running: each warning and breach fires once within 5 s of its time, as one timeline row, one case.sla_* event and one notification of each watcher', async () => {
      const workers = [await startTestApp({ env: { ROLE: 'worker' } }), await startTestApp({ env: { ROLE: 'worker' } })];
      try {
        const { caseId, watcher } = await watchedCase();
        const timers = await eventually('every timer of the case fired', async () => {
          const rows = await timersOf(caseId);
          return rows.length === 4 && rows.every((row) => row.fired_at !== null) ? rows : undefined;
        }, { timeoutMs: 15_000 });
        for (const row of timers) assert.ok(row.fired_at!.getTime() - row.fire_at.getTime() < 5000, `${row.clock} ${row.kind} fired ${row.fired_at!.getTime() - row.fire_at.getTime()} ms late`);
        await sleep(2500); // both workers' later passes find nothing more to fire
        const { rows, events, notified } = await effectsOf(caseId);
        const created = timers[0]!.created_at.getTime();
        const due = (ms: number) => new Date(created + ms).toISOString();
        assert.deepEqual(rows.map((row) => [row.type, row.data.clock, row.data.due_at]).sort(), [
          ['sla_breached', 'first_response', due(2000)], ['sla_breached', 'resolution', due(3000)],
          ['sla_warning', 'first_response', due(2000)], ['sla_warning', 'resolution', due(3000)],
        ]);
        for (const row of rows) assert.ok(row.data.late_ms >= 0 && row.data.late_ms < 5000, JSON.stringify(row));
        assert.deepEqual(events.map((event) => event.type).sort(), ['case.sla_breached', 'case.sla_breached', 'case.sla_warning', 'case.sla_warning']);
        assert.deepEqual(events.map((event: any) => event.details.sla.clock).sort(), ['first_response', 'first_response', 'resolution', 'resolution']);
        assert.deepEqual(notified.map((item) => [Number(item.user_id), item.kind]).sort(), [
          [watcher.userId, 'sla_breached'], [watcher.userId, 'sla_breached'], [watcher.userId, 'sla_warning'], [watcher.userId, 'sla_warning'],
        ]);
      } finally {
        for (const worker of workers) await worker.close();
      }
    });

    it('a breach whose time passed while no worker ran fires once when one starts, saying how late', async () => {
      const { caseId } = await watchedCase();
      const [first] = await trackedAtCreation(caseId, 4);
      await sleep(first!.created_at.getTime() + 9000 - Date.now());
      const worker = await startTestApp({ env: { ROLE: 'worker' } });
      try {
        await eventually('every timer of the case fired', async () => ((await timersOf(caseId)).every((row) => row.fired_at !== null) ? true : undefined), { timeoutMs: 15_000 });
        await sleep(2000);
      } finally {
        await worker.close();
      }
      const { rows, events, notified } = await effectsOf(caseId);
      const breach = rows.filter((row) => row.type === 'sla_breached' && row.data.clock === 'resolution');
      assert.equal(breach.length, 1);
      assert.ok(breach[0]!.data.late_ms >= 5500, `late_ms ${breach[0]!.data.late_ms}: its time passed 6 s before the worker started`);
      assert.equal(rows.length, 4);
      assert.equal(events.length, 4);
      assert.equal(notified.length, 4);
      assert.match(notified.find((item) => item.kind === 'sla_breached' && item.summary.includes('resolution'))!.summary, /fired \d+ s late/);
    });
  });
});

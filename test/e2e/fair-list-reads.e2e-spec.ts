/**
 * One tenant's expensive list reads cannot take the database from every other tenant (issue 16):
 * an organization has at most LIST_READS_PER_ORGANIZATION case list reads (cases API list and
 * change feed, admin list) under way on an instance, as many more wait a second, and the rest
 * are answered 429; another organization's reads meanwhile are let in. Its reads are charged
 * what they lasted to its budget of database time, and refused with 429 once it is spent. And a
 * statement of the service is never run with parallel workers, so a read is at most one backend.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { setTimeout as sleep } from 'node:timers/promises';
import { eventually } from '../support/automation-helpers.js';
import { assertErrorBody, type CasesFixture, createdCaseId, givenCasesWorkflow } from '../support/cases-api.js';
import { waitingBackends, whileLocked } from '../support/table-locks.js';
import { closeDb, type InjectResult, startTestApp, type TestApp } from '../support/test-app.js';

const READS_PER_ORGANIZATION = 2;

describe('list reads bounded per organization', () => {
  let t: TestApp;
  let a: CasesFixture;
  let b: CasesFixture;
  before(async () => {
    // Reads wait for the test's lock as long as the test needs, not the default statement timeout.
    // Reads held by the lock are charged what they waited: a budget that never runs out keeps this part about the shares.
    t = await startTestApp({ env: { LIST_READS_PER_ORGANIZATION: String(READS_PER_ORGANIZATION), LIST_READ_DATABASE_MS_PER_SECOND: '100000', DATABASE_STATEMENT_TIMEOUT_MS: '30000', RATE_LIMIT_PER_ADDRESS: '0', RATE_LIMIT_PER_CREDENTIAL: '0', ROLE: 'api' } });
    a = await givenCasesWorkflow(t);
    b = await givenCasesWorkflow(t);
    await createdCaseId(a, { attributes: { tags: ['x'] } });
    await createdCaseId(b, { attributes: { tags: ['x'] } });
  });
  after(async () => { await t.close(); await closeDb(); });

  const filtered = (f: CasesFixture) => t.request('GET', `${f.casesPath}?attributes=${encodeURIComponent('{"tags":["x","absent"]}')}`, { token: f.apiToken });
  const adminList = (f: CasesFixture) => t.request('GET', `/api/admin/v1/cases?attributes=${encodeURIComponent('{"tags":["absent"]}')}`, { token: f.org.adminToken });
  const feed = (f: CasesFixture) => t.request('GET', `${f.casesPath}/changes`, { token: f.apiToken });

  async function backendsWaiting(n: number): Promise<void> {
    await eventually(`${n} reads waiting for the lock`, async () => ((await waitingBackends()) === n ? true : undefined), { timeoutMs: 10_000 });
  }

  function assertRefused(res: InjectResult, what: string): void {
    assert.equal(res.status, 429, `${what}: ${res.status} ${res.text}`);
    assertErrorBody(res);
    assert.deepEqual(Object.keys(res.body), ['error']);
    assert.match(res.body.error, /list reads of this organization/);
    assert.equal(res.headers['retry-after'], '1', `${what}: Retry-After`);
  }

  it('refuses an organization\'s list reads past its share with 429 while another organization\'s read goes through', async () => {
    const { held, extra, other } = await whileLocked(['cases'], async () => {
      // A's first two reads (the cases API's list and the admin list) take its shares and wait in Postgres.
      const held = [filtered(a), adminList(a)];
      await backendsWaiting(READS_PER_ORGANIZATION);
      // Two more of A's wait for a share that does not come in time; a fifth finds the queue full.
      const extra = await Promise.all([feed(a), filtered(a), adminList(a)]);
      assert.equal(await waitingBackends(), READS_PER_ORGANIZATION, 'none of A\'s extra reads reached Postgres');
      // B's read at the same moment is let in: it reaches Postgres beside A's two.
      const other = filtered(b);
      await backendsWaiting(READS_PER_ORGANIZATION + 1);
      return { held, extra, other };
    });
    extra.forEach((res, i) => assertRefused(res, `A's extra read ${i}`));
    for (const res of await Promise.all(held)) assert.equal(res.status, 200, res.text);
    assert.equal((await other).status, 200, 'B was served');
    const after = await Promise.all([filtered(a), feed(a)]);
    for (const res of after) assert.equal(res.status, 200, `A's shares came back: ${res.text}`);
  });

  it('serves an organization\'s reads past its share once one of its shares comes back within the wait', async () => {
    const many = await Promise.all(Array.from({ length: READS_PER_ORGANIZATION * 2 }, () => feed(a)));
    for (const res of many) assert.equal(res.status, 200, res.text);
  });

  it('runs the service\'s statements without parallel workers: one read is one backend', async () => {
    const dataSource = t.app.get<DataSource>(getDataSourceToken());
    const [{ max_parallel_workers_per_gather: workers }] = await dataSource.query('SHOW max_parallel_workers_per_gather');
    assert.equal(workers, '0');
  });
});

describe('list reads charged to their organization\'s budget of database time', () => {
  /** 1 ms earned per second, 100 ms saved up at most: one read held 400 ms leaves some 300 ms of debt. */
  const MS_PER_SECOND = 1;
  const BURST_MS = 100;
  const HELD_MS = 400;
  let t: TestApp;
  let a: CasesFixture;
  let b: CasesFixture;
  before(async () => {
    t = await startTestApp({
      env: { LIST_READ_DATABASE_MS_PER_SECOND: String(MS_PER_SECOND), LIST_READ_DATABASE_BURST_MS: String(BURST_MS), DATABASE_STATEMENT_TIMEOUT_MS: '30000', RATE_LIMIT_PER_ADDRESS: '0', RATE_LIMIT_PER_CREDENTIAL: '0', ROLE: 'api' },
    });
    a = await givenCasesWorkflow(t);
    b = await givenCasesWorkflow(t);
    await createdCaseId(a, { attributes: { tags: ['x'] } });
  });
  after(async () => { await t.close(); await closeDb(); });

  const list = (f: CasesFixture) => t.request('GET', `${f.casesPath}?attributes=${encodeURIComponent('{"tags":["x"]}')}`, { token: f.apiToken });

  it('refuses an organization\'s reads with 429 and the time its debt takes to earn back once a slow read spent its budget, while another organization\'s read goes through', async () => {
    const { read } = await whileLocked(['cases'], async () => {
      const read = list(a);
      await eventually('the read waits for the lock', async () => ((await waitingBackends()) === 1 ? true : undefined), { timeoutMs: 10_000 });
      await sleep(HELD_MS);
      return { read };
    });
    const slow = await read;
    assert.equal(slow.status, 200, 'the slow read itself was served');
    assert.equal(slow.body.cases.length, 1);

    const refused = await Promise.all([list(a), t.request('GET', `${a.casesPath}/changes`, { token: a.apiToken }), t.request('GET', '/api/admin/v1/cases', { token: a.org.adminToken })]);
    for (const res of refused) {
      assert.equal(res.status, 429, `${res.status} ${res.text}`);
      assertErrorBody(res);
      assert.deepEqual(Object.keys(res.body), ['error']);
      assert.match(res.body.error, /spent their share of database time/);
      const retryAfter = Number(res.headers['retry-after']);
      // The debt is at least HELD_MS - BURST_MS, earned back at MS_PER_SECOND.
      assert.ok(retryAfter >= ((HELD_MS - BURST_MS) * 0.9) / MS_PER_SECOND && retryAfter <= 3_600, `Retry-After ${retryAfter}`);
    }
    assert.equal((await list(b)).status, 200, 'another organization\'s budget is its own');
  });

  it('charges the SLA report\'s timeline reads, not only its list of cases, to the organization\'s budget', async () => {
    const c = await givenCasesWorkflow(t);
    const admin = { token: c.org.adminToken };
    assert.equal((await t.request('PUT', '/api/admin/v1/calendars/Always', { ...admin, body: { time_zone: 'Europe/Berlin', hours: '24x7' } })).status, 200);
    const policy = await t.request('PUT', `/api/admin/v1/workflows/${c.workflowId}/sla`, { ...admin, body: { calendar: 'Always', targets: { normal: { first_response: 'PT1H', resolution: 'PT2H' } } } });
    assert.equal(policy.status, 200, policy.text);
    const from = new Date(Date.now() - 60_000).toISOString();
    await createdCaseId(c);
    const to = new Date(Date.now() + 60_000).toISOString();
    // Only the timelines wait: the report's count and its page of cases read no case_events.
    const { pending } = await whileLocked(['case_events'], async () => {
      const pending = t.request('GET', `/api/admin/v1/reports/sla?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}&workflow_id=${c.workflowId}`, admin);
      await eventually('the report\'s timeline read waits for the lock', async () => ((await waitingBackends()) === 1 ? true : undefined), { timeoutMs: 10_000 });
      await sleep(HELD_MS);
      return { pending };
    });
    const report = await pending;
    assert.equal(report.status, 200, report.text);
    assert.equal(report.body.report.cases, 1);
    const refused = await t.request('GET', '/api/admin/v1/cases', admin);
    assert.equal(refused.status, 429, `the timeline read spent the budget: ${refused.status} ${refused.text}`);
    assert.match(refused.body.error, /spent their share of database time/);
  });
});

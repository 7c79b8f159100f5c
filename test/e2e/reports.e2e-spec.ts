/**
 * The case report through HTTP, over a scripted history: cases from the API, the webhook, an
 * email and the request form,
 * closes, a reopen, a run failure parking a case in Error, and test cases doing the same
 * (never counted). The history is spread over three days by moving the organization's past
 * back in time between its steps (see travel), with the fold held off; the figures are then
 * checked across hour and day boundaries in two offsets, again once the worker folded the log
 * into the rollups, and again after the retention purge deleted the closed cases.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Automated, anotherAutomation, createCase, eventually, givenAutomation, patchStatus, startIsolatedApp, waitForSettled } from '../support/automation-helpers.js';
import { DAY_MS, HOUR_MS, holdFold, inOffset, travel } from '../support/report-helpers.js';
import { SmtpListener } from '../../src/modules/email/infrastructure/smtp-listener.js';
import { emailDefinition, givenEmailWorkflow, mail } from '../support/email-helpers.js';
import { formDefinition, postForm, validFields } from '../support/form-helpers.js';
import { createWorkflow, generateWebhook } from '../support/scenario.js';
import { deliver } from '../support/smtp-client.js';
import type { IsolatedDatabase } from '../support/automation-helpers.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { createdCaseId, postWebhook } from '../support/webhook-helpers.js';
import { fromDashboard, givenOwner } from '../support/people-helpers.js';

const ROUTE = '/api/admin/v1/reports/cases';
const FAILURE = 'crm answered 500';
const EMPTY_SOURCES = { API: 0, Webhook: 0, Email: 0, Form: 0 };

describe('case report', () => {
  let t: TestApp;
  let database: IsolatedDatabase;
  let close: () => Promise<void>;
  let w: Automated;
  let other: Automated;
  /** UTC midnight four days ago: the history runs on its day at 23:10 (day 0), 01:10 the day after (day 1) and 00:10 the day after that (day 2). */
  let midnight: number;
  const closedCases: number[] = [];
  let releaseFold: (() => Promise<void>) | undefined;
  const letFoldRun = async () => {
    const release = releaseFold;
    releaseFold = undefined;
    await release?.();
  };

  const report = async (query: string, token = w.org.adminToken) => {
    const res = await t.request('GET', `${ROUTE}?${query}`, { token });
    assert.equal(res.status, 200, res.text);
    return res.body.report;
  };

  before(async () => {
    ({ t, database, close } = await startIsolatedApp({ RETENTION_PURGE_INTERVAL_MS: '1000', RETENTION_CLOSED_CASES_DAYS: '0' }));
    w = await givenAutomation(t, { Triage: [{ fail: FAILURE }] });
    other = await anotherAutomation(w, {});
    const { token } = await generateWebhook(t, w.org, w.workflowId);
    const smtpPort = await t.app.get(SmtpListener).listen(0);
    const inbox = await givenEmailWorkflow(t, emailDefinition(), w.org);
    const formWorkflowId = await createWorkflow(t, w.org, formDefinition());
    const form = await t.request('POST', `/api/admin/v1/workflows/${formWorkflowId}/form`, { token: w.org.adminToken });
    assert.equal(form.status, 201, form.text);
    const webhookCase = async () => createdCaseId(await postWebhook(t, w.workflowId, token, { customer_email: 'ada@example.com' }));
    const move = async (caseId: number, status: string) => assert.equal((await patchStatus(w, caseId, status)).status, 200);

    releaseFold = await holdFold(database.pool);
    const start = Date.now();
    midnight = Math.floor(start / DAY_MS) * DAY_MS - 4 * DAY_MS;

    // Day 0, 23:10 UTC: five live cases on the workflow, one on the other, an email and a form case, two test cases.
    const [a1, a2, a3] = [await createCase(w), await createCase(w), await createCase(w)];
    const [w1] = [await webhookCase(), await webhookCase()];
    await createCase(other);
    const sent = await deliver({ port: smtpPort, to: [inbox.address], message: mail({ From: 'ada@example.com', To: inbox.address, Subject: 'Printer' }, 'It is on fire.') });
    assert.equal(sent.data?.code, 250, JSON.stringify(sent));
    assert.equal((await postForm(t, new URL(form.body.form.url).pathname, validFields())).status, 303);
    const [t1, t2] = [await createCase(w, { mode: 'test' }), await createCase(w, { mode: 'test' })];
    await travel(database.pool, w.org.id, 2 * HOUR_MS);

    // Day 1, 01:10: two closes after two hours, one run failure parking a case in Error; the test cases do the same.
    await move(a1!, 'Closed');
    await move(w1!, 'Closed');
    await move(a2!, 'Triage');
    await move(t1!, 'Closed');
    await move(t2!, 'Triage');
    await waitForSettled(a2!, 'Error', { pool: database.pool });
    await waitForSettled(t2!, 'Error', { pool: database.pool });
    await travel(database.pool, w.org.id, 23 * HOUR_MS);

    // Day 2, 00:10: a reopen, a close after 25 hours, two new cases.
    await move(a1!, 'Review');
    await move(a3!, 'Closed');
    await createCase(w);
    await webhookCase();

    // Everything moves back so that day 0's step happened at 23:10 on the day of `midnight`.
    await travel(database.pool, w.org.id, start - 25 * HOUR_MS - (midnight + 23 * HOUR_MS + 10 * 60_000));
    closedCases.push(w1!, a3!, t1!);
  });
  after(async () => {
    await letFoldRun();
    await close();
  });

  const days = (first: number, n: number) => Array.from({ length: n }, (_, i) => new Date(midnight + (first + i) * DAY_MS));
  const expectedTotals = { created: 7, closed: 3, errored: 1, reopened: 1 };

  function assertUtcDays(r: any): void {
    const [day0, day1, day2] = days(0, 3);
    assert.deepEqual(r.series, [
      { start: inOffset(day0!, 0), created: 8, closed: 0, errored: 0, created_by_source: { API: 4, Webhook: 2, Email: 1, Form: 1 } },
      { start: inOffset(day1!, 0), created: 0, closed: 2, errored: 1, created_by_source: EMPTY_SOURCES },
      { start: inOffset(day2!, 0), created: 2, closed: 1, errored: 0, created_by_source: { ...EMPTY_SOURCES, API: 1, Webhook: 1 } },
    ]);
    assert.deepEqual(r.totals, { ...expectedTotals, created: 10 });
    // Two closes after 2 hours (bucket up to 7512 s), one after 25 hours (up to 92 682 s).
    assert.deepEqual(r.time_to_close_seconds, { p50: 7512, p90: 92_682, count: 3 });
    assert.deepEqual(r.open_by_status, { Open: 6, Error: 1, Review: 1 });
    assert.deepEqual(r.top_errors, [{ message: FAILURE, count: 1 }]);
  }

  const utcDays = () => `from=${inOffset(new Date(midnight), 0)}&to=${inOffset(new Date(midnight + 3 * DAY_MS), 0)}&interval=day`;

  it('counts every live case by UTC day, and no test case', async () => {
    const r = await report(utcDays());
    assert.equal(r.from, inOffset(new Date(midnight), 0));
    assert.equal(r.interval, 'day');
    assertUtcDays(r);
  });

  it('starts days at midnight of the offset `from` is written in, and answers in it', async () => {
    // At UTC+2 the day-0 step (23:10 UTC) and the day-1 one (01:10 UTC) fall on the same day.
    const from = new Date(midnight - 2 * HOUR_MS);
    const r = await report(`from=${encodeURIComponent(inOffset(from, 2))}&to=${encodeURIComponent(inOffset(new Date(from.getTime() + 3 * DAY_MS), 2))}`);
    assert.deepEqual(r.series.map((s: any) => [s.start, s.created, s.closed, s.errored]), [
      [inOffset(from, 2), 0, 0, 0],
      [inOffset(new Date(from.getTime() + DAY_MS), 2), 8, 2, 1],
      [inOffset(new Date(from.getTime() + 2 * DAY_MS), 2), 2, 1, 0],
    ]);
    assert.match(r.series[1].start, /T00:00:00\+02:00$/);
  });

  it('cuts at hour boundaries, and a range ending before a change leaves it out', async () => {
    const from = new Date(midnight + 23 * HOUR_MS);
    const r = await report(`from=${inOffset(from, 0)}&to=${inOffset(new Date(from.getTime() + 3 * HOUR_MS), 0)}&interval=hour`);
    assert.deepEqual(r.series.map((s: any) => [s.created, s.closed, s.errored]), [[8, 0, 0], [0, 0, 0], [0, 2, 1]]);
    assert.deepEqual(r.totals, { created: 8, closed: 2, errored: 1, reopened: 0 });
    assert.deepEqual(r.time_to_close_seconds, { p50: 7512, p90: 7512, count: 2 });
    const before = await report(`from=${inOffset(from, 0)}&to=${inOffset(new Date(from.getTime() + 2 * HOUR_MS), 0)}&interval=hour`);
    assert.deepEqual(before.totals, { created: 8, closed: 0, errored: 0, reopened: 0 });
    assert.deepEqual(before.top_errors, []);
  });

  it('counts only the workflows asked for', async () => {
    const one = await report(`${utcDays()}&workflow_id=${w.workflowId}`);
    assert.deepEqual(one.totals, expectedTotals);
    assert.deepEqual(one.open_by_status, { Open: 3, Error: 1, Review: 1 });
    const both = await report(`${utcDays()}&workflow_id=${w.workflowId}&workflow_id=${other.workflowId}`);
    assert.deepEqual(both.totals, { ...expectedTotals, created: 8 });
    const none = await report(`${utcDays()}&workflow_id=${other.workflowId + 1000}`);
    assert.deepEqual(none.totals, { created: 0, closed: 0, errored: 0, reopened: 0 });
  });

  /**
   * Ranges that read each kind of rollup once folded: 24-hour rows starting at midnight UTC and
   * at 22:00 UTC, weeks, hours, a last interval shorter than a day, and ranges whose ends fall
   * in the middle of a UTC day and of a month (the time to close and errors then come from
   * hours, days and months).
   */
  const foldedRanges = () => {
    const at = (ms: number, offset = 0) => encodeURIComponent(inOffset(new Date(ms), offset));
    return [
      utcDays(),
      `from=${at(midnight - 2 * HOUR_MS, 2)}&to=${at(midnight + 3 * DAY_MS - 2 * HOUR_MS, 2)}`,
      `from=${at(midnight - 3 * DAY_MS)}&to=${at(midnight + 11 * DAY_MS)}&interval=week`,
      `from=${at(midnight + 20 * HOUR_MS)}&to=${at(midnight + 2 * DAY_MS + 3 * HOUR_MS)}&interval=hour`,
      `from=${at(midnight + 22 * HOUR_MS)}&to=${at(midnight + 2 * DAY_MS + 1 * HOUR_MS)}&interval=day`,
      `from=${at(midnight - 40 * DAY_MS + 5 * HOUR_MS)}&to=${at(midnight + 40 * DAY_MS + 7 * HOUR_MS)}&interval=week`,
      `from=${at(midnight + 23 * HOUR_MS)}&to=${at(midnight + 25 * HOUR_MS)}&interval=hour`,
    ];
  };

  it('answers the same once the worker folded the log into the rollups, and after the closed cases were purged', async () => {
    const unfolded = await report(utcDays());
    const unfoldedRanges = await Promise.all(foldedRanges().map((query) => report(query)));
    const rollupRows = async () => (await database.pool.query('SELECT count(*)::int AS n FROM case_report_hours WHERE organization_id = $1', [w.org.id])).rows[0].n;
    assert.equal(await rollupRows(), 0, 'nothing folded while the fold was held');
    await letFoldRun();
    await eventually('the log to be folded', async () => {
      const { rows } = await database.pool.query('SELECT count(*)::int AS n FROM report_changes WHERE organization_id = $1', [w.org.id]);
      return rows[0].n === 0 ? true : undefined;
    });
    assert.ok((await rollupRows()) > 0);
    assertUtcDays(await report(utcDays()));
    assert.deepEqual(await report(utcDays()), unfolded);
    for (const [i, query] of foldedRanges().entries()) assert.deepEqual(await report(query), unfoldedRanges[i], query);
    const set = await fromDashboard(t, await givenOwner(t, w.org.id), 'PUT', '/api/admin/v1/retention', { closed_cases_days: 1 });
    assert.equal(set.status, 200, set.text);
    await eventually('the closed cases to be purged', async () => {
      const { rows } = await database.pool.query('SELECT count(*)::int AS n FROM cases WHERE id = ANY($1::bigint[])', [closedCases]);
      return rows[0].n === 0 ? true : undefined;
    });
    assert.deepEqual(await report(utcDays()), unfolded);
  });
});

describe('case report: refusals', () => {
  let t: TestApp;
  let w: Automated;
  before(async () => {
    t = await startTestApp({ env: { ROLE: 'api' } });
    w = await givenAutomation(t, {});
  });
  after(() => t.close());

  const refused: [string, string][] = [
    ['a range over 366 days', 'from=2025-01-01T00:00:00Z&to=2026-01-03T00:00:00Z&interval=week'],
    ['over 2,000 intervals', 'from=2026-01-01T00:00:00Z&to=2026-03-25T09:00:00Z&interval=hour'],
    ['`from` after `to`', 'from=2026-02-01&to=2026-01-01'],
    ['`from` not a date', 'from=yesterday'],
    ['a day that does not exist', 'from=2026-02-30'],
    ['an ISO week date', 'from=2026-W01'],
    ['an unknown interval', 'interval=month'],
    ['a workflow id that is not a positive integer', 'workflow_id=0'],
    ['one of several workflow ids not an integer', 'workflow_id=1&workflow_id=x'],
    ['an unknown parameter', 'range=year'],
    ['more than 100 workflow ids', Array.from({ length: 101 }, (_, i) => `workflow_id=${i + 1}`).join('&')],
  ];
  for (const [what, query] of refused) {
    it(`422 for ${what}`, async () => {
      const res = await t.request('GET', `${ROUTE}?${query}`, { token: w.org.adminToken });
      assert.equal(res.status, 422, res.text);
      assert.equal(typeof res.body.error, 'string');
    });
  }

  it('answers 2,000 hourly intervals, and the last 30 days by day by default', async () => {
    const res = await t.request('GET', `${ROUTE}?from=2026-01-01T00:00:00Z&to=2026-03-25T08:00:00Z&interval=hour`, { token: w.org.adminToken });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.report.series.length, 2000);
    const fallback = await t.request('GET', ROUTE, { token: w.org.adminToken });
    assert.equal(fallback.status, 200, fallback.text);
    assert.equal(fallback.body.report.series.length, 30);
    assert.deepEqual(fallback.body.report.time_to_close_seconds, { p50: null, p90: null, count: 0 });
  });

  it('401 without an admin token', async () => {
    assert.equal((await t.request('GET', ROUTE)).status, 401);
    assert.equal((await t.request('GET', ROUTE, { token: w.apiToken })).status, 401);
  });
});

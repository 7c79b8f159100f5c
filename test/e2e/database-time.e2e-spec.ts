/**
 * Database time is bounded for every request (issue 16): Postgres itself cancels a statement
 * that runs past DATABASE_STATEMENT_TIMEOUT_MS, on the read paths of the cases and admin APIs and
 * in intake's statements, so the request is answered 503 with `Retry-After` and no backend is
 * left working for a client that is gone; the worker's maintenance is not cut off. And a list's
 * `attributes` filter is bounded in shape, refused with a 422 at the offending value's pointer.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { PostgresReportFold } from '../../src/modules/reporting/infrastructure/postgres-case-report-figures.js';
import { RetentionPurges } from '../../src/modules/retention/application/retention.ports.js';
import { TransactionRunner } from '../../src/shared/database/transaction.js';
import { assertErrorBody, caseCount, type CasesFixture, createdCaseId, givenCasesWorkflow, postCase } from '../support/cases-api.js';
import { whileLocked, waitingBackends } from '../support/table-locks.js';
import { closeDb, type InjectResult, startTestApp, type TestApp } from '../support/test-app.js';

const STATEMENT_TIMEOUT_MS = 1000;

describe('database time bounded for every request', () => {
  let t: TestApp;
  let f: CasesFixture;
  let caseId: number;
  before(async () => {
    t = await startTestApp({ env: { DATABASE_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS), RATE_LIMIT_PER_ADDRESS: '0', RATE_LIMIT_PER_CREDENTIAL: '0', ROLE: 'api' } });
    f = await givenCasesWorkflow(t);
    caseId = await createdCaseId(f, { attributes: { tier: 'gold' } });
  });
  after(async () => { await t.close(); await closeDb(); });

  function assertRetryLater(res: InjectResult, what: string): void {
    assert.equal(res.status, 503, `${what}: ${res.status} ${res.text}`);
    assertErrorBody(res);
    assert.deepEqual(Object.keys(res.body), ['error']);
    assert.equal(res.headers['retry-after'], '5', `${what}: Retry-After`);
  }

  it('cancels a read Postgres cannot finish in time, answers 503 with Retry-After, and leaves no backend behind', async () => {
    const admin = f.org.adminToken;
    const reads: [string, string, string][] = [
      ['cases API list', `${f.casesPath}?attributes=${encodeURIComponent('{"tier":"gold"}')}`, f.apiToken],
      ['cases API case', `${f.casesPath}/${caseId}`, f.apiToken],
      ['change feed', `${f.casesPath}/changes`, f.apiToken],
      ['admin list', '/api/admin/v1/cases', admin],
      ['admin case', `/api/admin/v1/cases/${caseId}`, admin],
      ['admin timeline', `/api/admin/v1/cases/${caseId}/timeline`, admin],
      ['admin report', '/api/admin/v1/reports/cases', admin],
    ];
    await whileLocked(['cases', 'report_changes'], async () => {
      for (const [what, url, token] of reads) assertRetryLater(await t.request('GET', url, { token }), what);
      assert.equal(await waitingBackends(), 0, 'Postgres cancelled every statement: none still waits for the lock');
    });
    for (const [what, url, token] of reads) assert.equal((await t.request('GET', url, { token })).status, 200, `${what} once the lock is gone`);
  });

  it('cancels intake statements that cannot be stored in time, each alone or batched: 503 with Retry-After, nothing stored', async () => {
    const before = await caseCount(f.workflowId);
    await whileLocked(['cases'], async () => {
      const answers = await Promise.all(Array.from({ length: 4 }, (_, i) => postCase(f, { subject: `while locked ${i}` })));
      answers.forEach((res, i) => assertRetryLater(res, `intake ${i}`));
      assert.equal(await waitingBackends(), 0);
    });
    assert.equal(await caseCount(f.workflowId), before, 'nothing was stored');
    assert.equal((await postCase(f, { subject: 'after the lock' })).status, 201);
  });

  it('lets the worker\'s maintenance (report folding, retention purges) wait past the timeout instead of failing every pass', async () => {
    const fold = new PostgresReportFold(t.app.get(TransactionRunner));
    const purges = t.app.get(RetentionPurges);
    const { done } = await whileLocked(['report_changes', 'digest_sends'], async () => {
      const done = Promise.allSettled([fold.fold(10), purges.purgeDigestSends(10)]);
      await sleep(STATEMENT_TIMEOUT_MS * 2);
      assert.equal(await waitingBackends(), 2, 'both still wait for the lock, past the timeout');
      return { done };
    });
    for (const outcome of await done) assert.equal(outcome.status, 'fulfilled', outcome.status === 'rejected' ? String(outcome.reason) : '');
  });
});

describe('list filters bounded in shape', () => {
  let t: TestApp;
  let f: CasesFixture;
  before(async () => {
    t = await startTestApp({ env: { RATE_LIMIT_PER_ADDRESS: '0', RATE_LIMIT_PER_CREDENTIAL: '0', ROLE: 'api' } });
    f = await givenCasesWorkflow(t);
    await createdCaseId(f, { attributes: { tags: ['a', 'b'] } });
  });
  after(async () => { await t.close(); await closeDb(); });

  const lists = () => [
    (q: string) => t.request('GET', `${f.casesPath}?attributes=${encodeURIComponent(q)}`, { token: f.apiToken }),
    (q: string) => t.request('GET', `/api/admin/v1/cases?attributes=${encodeURIComponent(q)}`, { token: f.org.adminToken }),
  ];
  const items = (n: number, from = 0) => Array.from({ length: n }, (_, i) => i + from);

  it('refuses a filter nested too deep, with too many array items or too long, at the offending value\'s pointer', async () => {
    const refused: [unknown, string, RegExp][] = [
      [{ a: { b: { c: { d: {} } } } }, '/attributes/a/b/c/d', /at most 4 levels/],
      [{ a: [[[[1]]]] }, '/attributes/a/0/0/0', /at most 4 levels/],
      [{ 'x/y~z': { b: { c: [[]] } } }, '/attributes/x~1y~0z/b/c/0', /at most 4 levels/],
      [{ tags: items(21) }, '/attributes/tags/20', /at most 20 array items/],
      [{ a: items(10), b: { c: items(11) } }, '/attributes/b/c/10', /at most 20 array items/],
      [{ a: [items(5), items(5), items(5), items(5)], b: [1] }, '/attributes/a/3/1', /at most 20 array items/],
      [{ a: 'x'.repeat(2041) }, '/attributes', /at most 2048 characters/],
    ];
    for (const list of lists()) {
      for (const [filter, path, error] of refused) {
        const res = await list(JSON.stringify(filter));
        assert.equal(res.status, 422, `${path}: ${res.text}`);
        assert.deepEqual(Object.keys(res.body), ['error', 'validation_errors']);
        assert.equal(res.body.validation_errors.length, 1, res.text);
        assert.equal(res.body.validation_errors[0].path, path, res.text);
        assert.match(res.body.validation_errors[0].error, error);
      }
    }
  });

  it('takes filters at the limits', async () => {
    const accepted = [
      { a: { b: { c: [1] } } },
      { tags: ['a', ...items(19)] },
      { tags: ['a'], a: { b: items(10), c: items(9) } },
      { a: 'x'.repeat(2040) },
    ];
    for (const list of lists()) {
      for (const filter of accepted) {
        assert.equal(JSON.stringify(filter).length <= 2048, true);
        const res = await list(JSON.stringify(filter));
        assert.equal(res.status, 200, `${JSON.stringify(filter).slice(0, 80)}: ${res.text.slice(0, 300)}`);
      }
    }
  });
});

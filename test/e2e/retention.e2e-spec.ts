/**
 * Retention through HTTP: the admin API of per-organization overrides (every 422; changed by an
 * owner), and a worker process with a short retention and purge interval that purges for real
 * and counts it on /metrics.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually, isolatedDatabase, isolatedRedisPrefix, type IsolatedDatabase } from '../support/automation-helpers.js';
import { createOrganization, createToken, givenDirectWorkflow, operatorToken, type Organization, sampleDefinition } from '../support/scenario.js';
import { fromDashboard, givenOwner, type Session } from '../support/people-helpers.js';
import { type ServiceProcess, spawnService } from '../support/service-process.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const ROUTE = '/api/admin/v1/retention';
const DEFAULTS = { runs_days: 30, deliveries_days: 30, closed_cases_days: 0, audit_days: 365 };
const NO_OVERRIDES = { runs_days: null, deliveries_days: null, closed_cases_days: null, audit_days: null };

describe('retention API', () => {
  let t: TestApp;
  let org: Organization;
  let owner: Session;
  before(async () => {
    t = await startTestApp({ env: { ROLE: 'api', RETENTION_RUNS_DAYS: '30', RETENTION_DELIVERIES_DAYS: '30', RETENTION_CLOSED_CASES_DAYS: '0' } });
    org = await createOrganization(t);
    owner = await givenOwner(t, org.id);
  });
  after(() => t.close());

  /** Retention is the owner's to change (people.md); admin-roles.e2e-spec.ts refuses the admin token. */
  const put = (body: unknown) => fromDashboard(t, owner, 'PUT', ROUTE, body);

  it('answers the defaults for an organization that set nothing', async () => {
    const res = await t.request('GET', ROUTE, { token: org.adminToken });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { retention: DEFAULTS, overrides: NO_OVERRIDES, defaults: DEFAULTS });
  });

  it('PUT replaces the whole override; null and left-out keys follow the default', async () => {
    const set = await put({ runs_days: 7, closed_cases_days: 0, deliveries_days: null });
    assert.equal(set.status, 200, set.text);
    const expected = { retention: { runs_days: 7, deliveries_days: 30, closed_cases_days: 0, audit_days: 365 }, overrides: { runs_days: 7, deliveries_days: null, closed_cases_days: 0, audit_days: null }, defaults: DEFAULTS };
    assert.deepEqual(set.body, expected);
    assert.deepEqual((await t.request('GET', ROUTE, { token: org.adminToken })).body, expected);

    const replaced = await put({ deliveries_days: 36500, closed_cases_days: 365, audit_days: 90 });
    assert.deepEqual(replaced.body.overrides, { runs_days: null, deliveries_days: 36500, closed_cases_days: 365, audit_days: 90 }, 'runs_days left out is back to the default');
    assert.deepEqual(replaced.body.retention, { runs_days: 30, deliveries_days: 36500, closed_cases_days: 365, audit_days: 90 });

    assert.deepEqual((await put({ runs_days: 1, deliveries_days: 1 })).body.retention, { runs_days: 1, deliveries_days: 1, closed_cases_days: 0, audit_days: 365 });
    assert.deepEqual((await put({})).body, { retention: DEFAULTS, overrides: NO_OVERRIDES, defaults: DEFAULTS });
  });

  it('an organization\'s overrides are its own', async () => {
    await put({ runs_days: 3 });
    const other = await createOrganization(t);
    assert.deepEqual((await t.request('GET', ROUTE, { token: other.adminToken })).body.overrides, NO_OVERRIDES);
    await put({});
  });

  describe('refuses with 422 and changes nothing', () => {
    const cases: [string, unknown, string?][] = [
      ['an unknown key', { runs_days: 7, keep_forever: true }, '/keep_forever'],
      ['a camelCase key', { runsDays: 7 }, '/runsDays'],
      ['a decimal', { runs_days: 1.5 }, '/runs_days'],
      ['a string', { deliveries_days: '30' }, '/deliveries_days'],
      ['a boolean', { closed_cases_days: true }, '/closed_cases_days'],
      ['an object', { runs_days: { days: 3 } }, '/runs_days'],
      ['runs_days 0', { runs_days: 0 }, '/runs_days'],
      ['deliveries_days 0', { deliveries_days: 0 }, '/deliveries_days'],
      ['a negative closed_cases_days', { closed_cases_days: -1 }, '/closed_cases_days'],
      ['over 36500 days', { runs_days: 36501 }, '/runs_days'],
      ['audit_days under 90', { audit_days: 89 }, '/audit_days'],
      ['an array body', [7]],
      ['a number body', 7],
    ];
    for (const [what, body, path] of cases) {
      it(what, async () => {
        await put({ runs_days: 9 });
        const res = await put(body);
        assert.equal(res.status, 422, res.text);
        assert.equal(typeof res.body.error, 'string');
        if (path) assert.ok(res.body.validation_errors.some((e: { path: string }) => e.path === path), `${res.text} names ${path}`);
        assert.equal((await t.request('GET', ROUTE, { token: org.adminToken })).body.overrides.runs_days, 9);
      });
    }

    it('a body that is not JSON', async () => {
      const res = await t.request('PUT', ROUTE, { rawBody: '{"runs_days": 7', headers: { cookie: owner.cookie, origin: new URL(t.env.PUBLIC_BASE_URL!).origin, 'content-type': 'application/json' } });
      assert.equal(res.status, 422, res.text);
      assert.equal(typeof res.body.error, 'string');
    });
  });

  it('needs a credential of the organization\'s admin API: none, an API token or the operator token is a 401', async () => {
    const { secret: apiToken } = await createToken(t, org, 'api');
    for (const token of [undefined, apiToken, operatorToken(), `${org.adminToken}x`]) {
      for (const [method, body] of [['GET', undefined], ['PUT', { runs_days: 2 }]] as const) {
        const res = await t.request(method, ROUTE, { token, body });
        assert.equal(res.status, 401, `${method} with ${token === undefined ? 'no token' : 'a wrong token'}: ${res.text}`);
        assert.equal(typeof res.body.error, 'string');
      }
    }
  });
});

describe('retention purge in a worker process', () => {
  let database: IsolatedDatabase;
  let api: TestApp;
  let worker: ServiceProcess | undefined;
  before(async () => {
    database = await isolatedDatabase();
    api = await startTestApp({ env: { ROLE: 'api', DATABASE_URL: database.url } });
  });
  after(async () => {
    await worker?.kill();
    await api.close();
    await database.drop();
  });

  it('purges runs finished longer ago than its RETENTION_RUNS_DAYS on its own schedule, and counts them on /metrics', async () => {
    const w = await givenDirectWorkflow(api, sampleDefinition({ automations: { Open: [{ wait: { seconds: 60 } }] } }));
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await api.request('POST', w.casesPath, { token: w.apiToken, body: { attributes: { customer_email: 'ada@example.com' } } });
      assert.equal(res.status, 201, res.text);
      ids.push(res.body.case.id);
    }
    // Two runs finished an hour ago, one a minute ago: only the first two are past 0.01 days (14.4 minutes).
    await database.pool.query(
      `UPDATE workflow_runs SET state = 'succeeded', created_at = now() - CASE WHEN case_id = $2 THEN interval '2 minutes' ELSE interval '2 hours' END,
         finished_at = now() - CASE WHEN case_id = $2 THEN interval '1 minute' ELSE interval '1 hour' END
       WHERE case_id = ANY($1::bigint[])`,
      [ids, ids[2]],
    );

    worker = await spawnService('worker', {
      DATABASE_URL: database.url,
      REDIS_PREFIX: isolatedRedisPrefix(),
      LOG_LEVEL: 'info',
      RETENTION_RUNS_DAYS: '0.01',
      RETENTION_PURGE_INTERVAL_MS: '1000',
    });
    const purged = await eventually('the worker to purge two runs', async () => {
      const { text: metrics } = await worker!.request('GET', '/metrics');
      const runs = /^purged_rows_total\{kind="runs"\} (\d+)$/m.exec(metrics);
      return runs && Number(runs[1]) >= 2 ? metrics : undefined;
    }, { explain: async () => worker!.describe() });

    assert.match(purged, /^purged_rows_total\{kind="runs"\} 2$/m);
    assert.match(purged, /^purged_rows_total\{kind="cases"\} 0$/m, 'RETENTION_CLOSED_CASES_DAYS defaults to keeping cases');
    const { rows } = await database.pool.query<{ case_id: string }>(`SELECT case_id FROM workflow_runs WHERE case_id = ANY($1::bigint[])`, [ids]);
    assert.deepEqual(rows.map((row) => Number(row.case_id)), [ids[2]]);
    const usage = await api.request('GET', '/api/admin/v1/usage?from=2000-01-01T00:00:00Z', { token: w.org.adminToken });
    assert.equal(usage.body.usage.live.runs, 3, 'purged runs still count in usage');
    // Log lines are buffered until the process exits.
    await worker.kill('SIGTERM');
    assert.match(worker.describe(), /"msg":"retention purge pass"/, 'each pass logs one line');
  });
});

/**
 * A bulk change at its largest (casework.md, section 6), with the service as real processes on a
 * database of their own (no other app of the test run takes the job).
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { eventually, type IsolatedDatabase, isolatedDatabase, isolatedRedisPrefix } from '../support/automation-helpers.js';
import { statusDefinition } from '../support/cases-api.js';
import { operatorToken } from '../support/scenario.js';
import { type ServiceProcess, spawnService } from '../support/service-process.js';

describe('bulk changes across processes', () => {
  let database: IsolatedDatabase;
  const prefix = isolatedRedisPrefix();
  const processes: ServiceProcess[] = [];
  let adminToken: string;
  let organizationId: number;

  async function start(role: 'api' | 'worker'): Promise<ServiceProcess> {
    const service = await spawnService(role, { DATABASE_URL: database.url, REDIS_PREFIX: prefix });
    processes.push(service);
    return service;
  }
  const killAll = async () => { for (const service of processes.splice(0)) await service.kill(); };

  /** A published workflow without automation, and `count` of its cases written straight into the table. */
  async function workflowWithCases(api: ServiceProcess, name: string, count: number): Promise<number> {
    const created = await api.request('POST', '/api/admin/v1/workflows', { token: adminToken, body: statusDefinition({ name }) });
    assert.equal(created.status, 201, created.text);
    const workflowId: number = created.body.workflow.id;
    assert.equal((await api.request('POST', `/api/admin/v1/workflows/${workflowId}/publish`, { token: adminToken })).status, 200);
    await database.pool.query(
      `INSERT INTO cases (organization_id, workflow_id, workflow_version, subject, status, mode, source, attributes)
       SELECT $1, $2, 1, 'Case ' || g, 'Open', 'live', 'API', jsonb_build_object('n', g)
       FROM generate_series(1, $3) g`,
      [organizationId, workflowId, count],
    );
    return workflowId;
  }

  before(async () => {
    database = await isolatedDatabase();
    const api = await start('api');
    const org = await api.request('POST', '/api/operator/v1/organizations', { token: operatorToken(), body: { name: 'Bulk org' } });
    assert.equal(org.status, 201, org.text);
    adminToken = org.body.admin_token;
    organizationId = org.body.organization.id;
    await killAll();
  });
  afterEach(killAll);
  after(async () => {
    await killAll();
    await database?.drop();
  });

  it('a bulk job of 10,000 cases survives a restart of every process and finishes once, with one timeline row per case', async () => {
    let api = await start('api');
    const workflowId = await workflowWithCases(api, 'Bulk', 10_000);
    await workflowWithCases(api, 'Other', 1);

    const tooMany = await api.request('POST', '/api/admin/v1/cases/bulk', { token: adminToken, body: { filter: {}, change: { status: 'Triage' } } });
    assert.equal(tooMany.status, 422, tooMany.text);
    assert.match(tooMany.body.error, /at most 10,000 cases/);

    const accepted = await api.request('POST', '/api/admin/v1/cases/bulk', { token: adminToken, body: { filter: { workflow_id: String(workflowId) }, change: { status: 'Triage' } } });
    assert.equal(accepted.status, 202, accepted.text);
    const jobId: number = accepted.body.job.id;
    assert.equal(accepted.body.job.total, 10_000);
    const stored = await database.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM bulk_job_cases WHERE job_id = $1', [jobId]);
    assert.equal(stored.rows[0]!.n, 10_000, 'the cases are stored with the job as it is accepted');
    // A case that comes in once the job was accepted is not swept in.
    const apiToken = await api.request('POST', '/api/admin/v1/tokens', { token: adminToken, body: { name: 'intake', scope: 'api' } });
    const late = await api.request('POST', `/api/external/v1/workflows/${workflowId}/cases`, { token: apiToken.body.secret, body: {} });
    assert.equal(late.status, 201, late.text);

    await start('worker');
    const progress = async () => (await database.pool.query<{ done: number; failed: number; state: string }>('SELECT done, failed, state FROM bulk_jobs WHERE id = $1', [jobId])).rows[0]!;
    await eventually('the job to be under way', async () => ((await progress()).done > 0 ? true : undefined), { timeoutMs: 60_000 });
    await killAll();
    const halfway = await progress();
    assert.ok(halfway.done > 0 && halfway.done < 10_000, `killed mid-job (done ${halfway.done})`);

    api = await start('api');
    await start('worker');
    const finished = await eventually('the job to finish', async () => {
      const res = await api.request('GET', `/api/admin/v1/jobs/${jobId}`, { token: adminToken });
      assert.equal(res.status, 200, res.text);
      return res.body.job.state === 'finished' ? res.body.job : undefined;
    }, { timeoutMs: 300_000 });
    assert.deepEqual([finished.done, finished.failed, finished.failures], [10_000, 0, []]);

    const moves = await database.pool.query<{ cases: number; rows: number; most: number }>(
      `SELECT count(DISTINCT e.case_id)::int AS cases, count(*)::int AS rows, max(n)::int AS most
       FROM (SELECT case_id, count(*) OVER (PARTITION BY case_id) AS n FROM case_events
             WHERE type = 'status_changed' AND case_id IN (SELECT id FROM cases WHERE workflow_id = $1 AND id <> $2)) e`,
      [workflowId, late.body.case.id],
    );
    assert.deepEqual(moves.rows[0], { cases: 10_000, rows: 10_000, most: 1 }, 'one status change per case, none twice');
    const audited = await database.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_entries WHERE action = 'case.changed' AND organization_id = $1`, [organizationId]);
    assert.equal(audited.rows[0]!.n, 10_000);
    const lateCase = await database.pool.query<{ status: string }>('SELECT status FROM cases WHERE id = $1', [late.body.case.id]);
    assert.equal(lateCase.rows[0]!.status, 'Open', 'a case created after the job was accepted is left alone');
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type Automated,
  EMAIL,
  eventually,
  givenAutomation,
  type IsolatedDatabase,
  isolatedDatabase,
  isolatedRedisPrefix,
  waitForSettled,
} from '../support/automation-helpers.js';
import { type ServiceProcess, spawnServices } from '../support/service-process.js';
import { emptyRedisPrefix } from '../support/test-infra.js';

/** Longer than the relay's re-enqueue of a run whose job was lost (15 s), with room for a busy machine. */
const SETTLE_MS = 60_000;
const POSTERS = 4;

/**
 * Redis holds nothing that cannot be rebuilt (docs/deploying.md, Backups): an API and a worker
 * process on a database and Redis prefix of their own have every key under that prefix deleted
 * at once (emptyRedisPrefix: never FLUSHALL, other test runs share this Redis), once while runs wait on
 * delayed jobs that live only in Redis, and twice under load; every accepted case still runs
 * its whole chain, each run exactly once.
 */
describe('Redis emptied: everything is rebuilt from Postgres', () => {
  let database: IsolatedDatabase;
  let redisPrefix: string;
  let services: ServiceProcess[] = [];
  let chain: Automated;

  before(async () => {
    database = await isolatedDatabase();
    redisPrefix = isolatedRedisPrefix();
    services = await spawnServices(['api', 'worker'], { DATABASE_URL: database.url, REDIS_PREFIX: redisPrefix });
    // The wait parks each Open run on a delayed Bull job: for two seconds it exists only in Redis.
    chain = await givenAutomation(services[0]!, {
      Open: [{ set_attributes: { stamped: '{{ case.id }}' } }, { wait: { seconds: 2 } }, { set_status: 'Triage' }],
      Triage: [{ close: { outcome: 'Done' } }],
    });
  });
  after(async () => {
    await Promise.all(services.map((service) => service.kill()));
    await database?.drop();
  });

  const emptyRedis = () => emptyRedisPrefix(process.env.REDIS_URL!, redisPrefix);

  const post = async (subject: string): Promise<number> => {
    const res = await services[0]!.request('POST', chain.casesPath, { token: chain.apiToken, body: { subject, attributes: { customer_email: EMAIL } } });
    assert.equal(res.status, 201, res.text);
    return res.body.case.id;
  };

  /** The workflow's cases with this subject prefix are exactly `ids`, and each settled Closed through its two runs, each started and succeeded once. */
  async function assertEachChainRanOnce(subjectPrefix: string, ids: number[]): Promise<void> {
    const stored = await database.pool.query<{ id: string }>(`SELECT id FROM cases WHERE workflow_id = $1 AND starts_with(subject, $2)`, [chain.workflowId, subjectPrefix]);
    const byNumber = (a: number, b: number) => a - b;
    assert.deepEqual(stored.rows.map((r) => Number(r.id)).sort(byNumber), [...ids].sort(byNumber));
    for (const id of ids) {
      const settled = await waitForSettled(id, 'Closed', { pool: database.pool, timeoutMs: SETTLE_MS });
      assert.deepEqual(settled.attributes, { customer_email: EMAIL, stamped: id });
      assert.deepEqual(settled.runs.map((r) => [r.status, r.state]), [['Open', 'succeeded'], ['Triage', 'succeeded']], `case ${id}`);
    }
    const { rows } = await database.pool.query<{ type: string; n: number }>(
      `SELECT type, count(*)::int AS n FROM case_events WHERE case_id = ANY($1::bigint[]) AND type IN ('run_started', 'run_succeeded', 'attributes_changed') GROUP BY type ORDER BY type`,
      [ids],
    );
    assert.deepEqual(rows.map((r) => [r.type, r.n]), [['attributes_changed', ids.length], ['run_started', 2 * ids.length], ['run_succeeded', 2 * ids.length]]);
  }

  it('runs waiting on delayed jobs when Redis is emptied: the relay enqueues them again from Postgres', async () => {
    const ids = await Promise.all(Array.from({ length: 20 }, (_, i) => post(`waiting ${i}`)));
    await eventually('every Open run waiting on its delayed job', async () => {
      const { rows } = await database.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM workflow_runs WHERE case_id = ANY($1::bigint[]) AND state = 'waiting'`, [ids]);
      return rows[0]!.n === ids.length ? true : undefined;
    });
    assert.ok((await emptyRedis()) > 0, 'there were keys to delete');
    await assertEachChainRanOnce('waiting ', ids);
  });

  it('emptied twice under load: intake never fails, every accepted case completes its chain once', async () => {
    const accepted: number[] = [];
    let posting = true;
    const posters = Array.from({ length: POSTERS }, async (_, p) => {
      for (let i = 0; posting; i++) accepted.push(await post(`load ${p}-${i}`));
    });
    const acceptedAtLeast = (count: number) => eventually(`${count} cases accepted`, async () => (accepted.length >= count ? true : undefined));
    try {
      await acceptedAtLeast(20);
      assert.ok((await emptyRedis()) > 0, 'there were keys to delete');
      await acceptedAtLeast(40);
      await emptyRedis();
      await acceptedAtLeast(60);
    } finally {
      posting = false;
      await Promise.all(posters);
    }
    await assertEachChainRanOnce('load ', accepted);
  });
});

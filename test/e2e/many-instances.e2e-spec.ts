import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type Automated,
  EMAIL,
  givenAutomation,
  type IsolatedDatabase,
  isolatedDatabase,
  isolatedRedisPrefix,
  waitForSettled,
} from '../support/automation-helpers.js';
import { createToken } from '../support/scenario.js';
import { type ServiceProcess, spawnServices } from '../support/service-process.js';

/** What the operations spec promises ("Many instances"): refused by every instance within this long. */
const WITHIN_MS = 1_000;
/** How long the token test keeps polling before it reports how long the refusal really took. */
const GIVE_UP_MS = 3_000;
const CASES = 30;
/** How long each of the four processes may take to start (a lone start: RUN_DEADLINE_MS). */
const FOUR_STARTING_MS = 60_000;

/**
 * Two API processes (A and B) and two worker processes on one database and one Redis
 * (issue 11, "Many instances"): nothing duplicated, nothing lost, caches consistent.
 */
describe('two API and two worker processes on one database and Redis', () => {
  let database: IsolatedDatabase;
  let a: ServiceProcess;
  let b: ServiceProcess;
  const services: ServiceProcess[] = [];
  /** Open stamps the case and moves it to Triage, Triage marks it and moves it to Review, Review closes it. */
  let chain: Automated;

  before(async () => {
    database = await isolatedDatabase();
    const env = { DATABASE_URL: database.url, REDIS_PREFIX: isolatedRedisPrefix() };
    // Four processes booting at once beside the other lanes' tests: a start may take longer than a lone one's.
    services.push(...(await spawnServices(['api', 'api', 'worker', 'worker'], env, { startMs: FOUR_STARTING_MS })));
    [a, b] = services as [ServiceProcess, ServiceProcess];
    chain = await givenAutomation(a, {
      Open: [{ set_attributes: { stamped: '{{ case.id }}' } }, { set_status: 'Triage' }],
      Triage: [{ set_attributes: { triaged: true } }, { set_status: 'Review' }],
      Review: [{ close: { outcome: 'Done' } }],
    });
  });
  after(async () => {
    await Promise.all(services.map((service) => service.kill()));
    await database?.drop();
  });

  const post = (api: ServiceProcess, key: string, subject: string) =>
    api.request('POST', chain.casesPath, { token: chain.apiToken, headers: { 'idempotency-key': key }, body: { subject, attributes: { customer_email: EMAIL } } });

  it('the same Idempotency-Keys sent to both APIs at once: one case per key, every answer with that case', async () => {
    const keys = Array.from({ length: CASES }, (_, i) => `many-instances-${i}`);
    // Each key twice on each API, all at once.
    const answers = await Promise.all(keys.flatMap((key) => [a, b, a, b].map(async (api) => ({ key, res: await post(api, key, key) }))));
    const caseOf = new Map<string, Set<number>>();
    for (const { key, res } of answers) {
      assert.equal(res.status, 201, `${key}: ${res.status} ${res.text}`);
      caseOf.set(key, (caseOf.get(key) ?? new Set()).add(res.body.case.id));
    }
    for (const [key, ids] of caseOf) assert.equal(ids.size, 1, `${key} got cases ${[...ids].join(', ')}`);
    const { rows } = await database.pool.query<{ subject: string; n: number }>(
      `SELECT subject, count(*)::int AS n FROM cases WHERE workflow_id = $1 AND subject = ANY($2::text[]) GROUP BY subject`,
      [chain.workflowId, keys],
    );
    assert.deepEqual(rows.map((r) => [r.subject, r.n]).sort(), keys.map((key) => [key, 1]).sort());
  });

  it('a chain of automation runs completes exactly once per case, with two workers', async () => {
    const ids = await Promise.all(
      Array.from({ length: CASES }, async (_, i) => {
        const res = await post(i % 2 ? b : a, `chain-${i}`, `chain ${i}`);
        assert.equal(res.status, 201, res.text);
        return res.body.case.id as number;
      }),
    );
    for (const id of ids) {
      const settled = await waitForSettled(id, 'Closed', { pool: database.pool });
      assert.equal(settled.outcome, 'Done');
      assert.deepEqual(settled.attributes, { customer_email: EMAIL, stamped: id, triaged: true });
      assert.deepEqual(settled.runs.map((r) => [r.status, r.state, r.attempts]), [['Open', 'succeeded', 1], ['Triage', 'succeeded', 1], ['Review', 'succeeded', 1]], `case ${id}`);
    }
    const { rows } = await database.pool.query<{ type: string; n: number }>(
      `SELECT type, count(*)::int AS n FROM case_events WHERE case_id = ANY($1::bigint[]) AND type IN ('run_started', 'run_succeeded', 'attributes_changed') GROUP BY type ORDER BY type`,
      [ids],
    );
    assert.deepEqual(rows.map((r) => [r.type, r.n]), [['attributes_changed', 2 * CASES], ['run_started', 3 * CASES], ['run_succeeded', 3 * CASES]]);
  });

  it('a token deleted on A is refused on B within 1 s', async () => {
    const token = await createToken(a as never, chain.org, 'api');
    // 404: the token was accepted (B now holds it in its cache); 401 once B refuses it.
    const statusOnB = async () => (await b.request('GET', `${chain.casesPath}/999999999`, { token: token.secret })).status;
    assert.equal(await statusOnB(), 404);
    const res = await a.request('DELETE', `/api/admin/v1/tokens/${token.id}`, { token: chain.org.adminToken });
    assert.equal(res.status, 204, res.text);
    const deletedAt = Date.now();
    let status = await statusOnB();
    while (status !== 401 && Date.now() - deletedAt < GIVE_UP_MS) {
      assert.equal(status, 404);
      await new Promise((resolve) => setTimeout(resolve, 20));
      status = await statusOnB();
    }
    const ms = Date.now() - deletedAt;
    assert.equal(status, 401, `still accepted on B ${ms} ms after the delete on A`);
    assert.ok(ms < WITHIN_MS, `refused on B after ${ms} ms`);
  });
});

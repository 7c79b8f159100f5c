/**
 * REDIS_CLUSTER=true on a real Redis Cluster of three masters started here: intake from the API
 * and a webhook, automation chains, event deliveries, rate limits, and a restart of the master
 * whose slot holds the queues. That master saves nothing, so it comes back empty: every job, lock
 * and counter of the queues is lost while a run is under way; Postgres still knows every run,
 * and the relay hands lost runs to the queue again.
 *
 * The app has a database of its own: no other app of the test run (on the single Redis) may
 * execute these runs, so a finished run shows the cluster carried its job.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { REENQUEUE_AFTER_MS } from '../../src/modules/automation/infrastructure/run-relay.service.js';
import {
  createCase,
  EMAIL,
  givenAutomation,
  RUN_DEADLINE_MS,
  receiverFor,
  runsOf,
  startIsolatedApp,
  waitForSettled,
} from '../support/automation-helpers.js';
import { type LocalRedisCluster, startRedisCluster } from '../support/redis-cluster.js';
import { inTurn, Receiver, subscribe, waitFor } from '../support/subscription-helpers.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { createdCaseId, directDefinition, givenWebhook, postWebhook } from '../support/webhook-helpers.js';

/** Open copies the case id and moves to Triage; Triage closes the case. */
const CHAIN = {
  Open: [{ set_attributes: { copied_id: '{{ case.id }}' } }, { set_status: 'Triage' }],
  Triage: [{ close: { outcome: 'Chained' } }],
};

describe('Redis Cluster (REDIS_CLUSTER=true, three masters)', () => {
  let scratch: string | undefined;
  let cluster: LocalRedisCluster | undefined;
  let service: Awaited<ReturnType<typeof startIsolatedApp>> | undefined;
  /** A second instance (ROLE=api) on the same database and cluster, with a limit of 3 requests a minute per credential. */
  let limited: TestApp | undefined;
  const app = () => service!.t;
  const pool = () => service!.database.pool;

  before(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'cis-redis-cluster-'));
    cluster = await startRedisCluster(scratch);
    const onCluster = { REDIS_URL: cluster.url, REDIS_CLUSTER: 'true' };
    service = await startIsolatedApp({ ...onCluster, ROLE: 'all', DELIVERY_RETRY_BASE_MS: '200' });
    limited = await startTestApp({
      env: { ...onCluster, DATABASE_URL: service.database.url, REDIS_PREFIX: service.t.env.REDIS_PREFIX, ROLE: 'api', RATE_LIMIT_PER_CREDENTIAL: '3' },
    });
  });
  after(async () => {
    await limited?.close();
    await service?.close();
    await cluster?.stop();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  /** Waits for the case to close through CHAIN and checks both runs succeeded in order. */
  async function assertChained(caseId: number, timeoutMs?: number): Promise<void> {
    const settled = await waitForSettled(caseId, 'Closed', { pool: pool(), timeoutMs });
    assert.equal(settled.outcome, 'Chained');
    assert.equal(settled.attributes.copied_id, caseId);
    assert.deepEqual(settled.runs.map((r) => [r.status, r.state]), [['Open', 'succeeded'], ['Triage', 'succeeded']], `case ${caseId}`);
  }

  it('takes cases from the API and from a webhook and runs their automation chains to completion', async () => {
    const w = await givenAutomation(app(), CHAIN);
    const fromApi = await createCase(w);
    const hooked = await givenWebhook(app(), directDefinition({ statuses: ['Triage'], automations: CHAIN }));
    const fromWebhook = createdCaseId(await postWebhook(app(), hooked.workflowId, hooked.token, { customer_email: EMAIL }));
    await assertChained(fromApi);
    await assertChained(fromWebhook);
  });

  it('counts the rate limits in the cluster: the 4th case posted with one token within the minute is a 429', async () => {
    const w = await givenAutomation(app(), CHAIN);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push((await limited!.request('POST', w.casesPath, { token: w.apiToken, body: { attributes: { customer_email: EMAIL } } })).status);
    }
    assert.deepEqual(statuses, [201, 201, 201, 429]);
  });

  it('delivers a case.closed event through the deliveries queue, and again (a new job) after a 500', async (test) => {
    const receiver = await Receiver.start();
    test.after(() => receiver.stop());
    receiver.script = inTurn([500]);
    const w = await givenAutomation(app(), CHAIN);
    await subscribe(app(), w.org, { url: receiver.url, events: ['case.closed'] });
    const id = await createCase(w);
    const event = await waitFor(`case.closed of case ${id}`, () => receiver.accepted().find((e) => e.type === 'case.closed' && e.data.case.id === id));
    assert.deepEqual(receiver.requests.map((r) => [r.headers['webhook-id'], r.answered]), [[event.id, 500], [event.id, 200]]);
  });

  it('the master holding the queues restarts empty: the run under way, cases taken meanwhile and cases taken afterwards all complete', async (test) => {
    // The first request is answered only after a while, so the restart happens while its run is under way.
    const receiver = await receiverFor(test, (n) => ({ status: 200, body: { answered: n }, delayMs: n === 1 ? 2_000 : 0 }));
    const w = await givenAutomation(app(), {
      ...CHAIN,
      Open: [{ http_request: { method: 'POST', url: `${receiver.url}/notify`, timeout_ms: 10_000, retries: 3 } }, ...CHAIN.Open],
    });
    const queuesPort = await cluster!.portServing(`{${app().env.REDIS_PREFIX}:bull}`);

    const underWay = await createCase(w);
    await receiver.waitForRequests(1);
    const [run] = await runsOf(underWay, pool());
    assert.equal(run!.state, 'running', 'the first run is under way when its Redis master stops');

    await cluster!.stopNode(queuesPort);
    const duringRestart = await createCase(w);
    await cluster!.startNode(queuesPort);
    const afterRestart = await createCase(w);

    // A job lost with the master's data is handed to the queue again once REENQUEUE_AFTER_MS have passed.
    for (const id of [underWay, duringRestart, afterRestart]) await assertChained(id, REENQUEUE_AFTER_MS + RUN_DEADLINE_MS);
  });
});

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import { freePort, type RunningService, startLocalRedis } from '../../scripts/local-infra.js';
import { REENQUEUE_AFTER_MS } from '../../src/modules/automation/infrastructure/run-relay.service.js';
import {
  createCase,
  givenAutomation,
  type IsolatedDatabase,
  isolatedDatabase,
  ofType,
  RUN_DEADLINE_MS,
  receiverFor,
  runsOf,
  timelineOf,
  waitForSettled,
} from '../support/automation-helpers.js';
import { type ServiceProcess, spawnService } from '../support/service-process.js';

/**
 * The service as real processes on a Redis of this file's own (stopped and restarted here)
 * and a database of its own (so no other app of the test run executes these runs).
 */
describe('automation across process and Redis failures', () => {
  let scratch: string | undefined;
  let redisPort: number;
  let redis: RunningService | undefined;
  let database: IsolatedDatabase | undefined;
  const processes: ServiceProcess[] = [];
  const prefix = `cis-faults-${randomBytes(4).toString('hex')}`;

  const startRedis = async () => { redis ??= await startLocalRedis(join(scratch!, 'redis'), redisPort, false); };
  const stopRedis = async () => { await redis?.stop(); redis = undefined; };
  const killAll = async () => { for (const service of processes.splice(0)) await service.kill(); };

  async function start(role: 'api' | 'worker'): Promise<ServiceProcess> {
    const service = await spawnService(role, { DATABASE_URL: database!.url, REDIS_URL: `redis://127.0.0.1:${redisPort}`, REDIS_PREFIX: prefix, RUN_LEASE_MS: '3000' });
    processes.push(service);
    return service;
  }

  before(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'cis-automation-faults-'));
    redisPort = await freePort();
    await startRedis();
    database = await isolatedDatabase();
  });
  afterEach(killAll);
  after(async () => {
    await killAll();
    await stopRedis();
    await database?.drop();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('takes cases while Redis is down; a worker started once Redis is back runs each case\'s run exactly once', async () => {
    const api = await start('api');
    const w = await givenAutomation(api, { Open: [{ set_attributes: { processed_case: '{{ case.id }}' } }, { close: { outcome: 'Processed' } }] });

    await stopRedis();
    const ids = await Promise.all(Array.from({ length: 20 }, (_, i) => createCase(w, { subject: `During the outage #${i}` })));
    const { rows } = await database!.pool.query(`SELECT state, count(*)::int AS n FROM workflow_runs WHERE case_id = ANY($1::bigint[]) GROUP BY state`, [ids]);
    assert.deepEqual(rows, [{ state: 'pending', n: 20 }], 'each case has its pending run, stored with it');

    await startRedis();
    await start('worker');
    for (const id of ids) {
      const settled = await waitForSettled(id, 'Closed', { pool: database!.pool });
      assert.equal(settled.outcome, 'Processed');
      assert.equal(settled.attributes.processed_case, id);
      assert.deepEqual(settled.runs.map((r) => [r.status, r.state, r.attempts]), [['Open', 'succeeded', 1]], `case ${id}`);
      const events = await timelineOf(w, id);
      for (const type of ['run_started', 'attributes_changed', 'run_succeeded']) assert.equal(ofType(events, type).length, 1, `case ${id}: one ${type}`);
    }
  });

  it('a worker killed mid-run: another worker finishes it without repeating committed steps, and sends the unanswered request again', async (test) => {
    await startRedis();
    const receiver = await receiverFor(test, (n) => (n === 1 ? { status: 200, body: { late: true }, delayMs: 5000 } : { status: 200, body: { delivered: true } }));
    const api = await start('api');
    const w = await givenAutomation(api, {
      Open: [
        { set_attributes: { first_step: 'done' } },
        { http_request: { method: 'POST', url: `${receiver.url}/slow`, body: { case_id: '{{ case.id }}' }, timeout_ms: 10000, retries: 3, save_response_as: 'delivery' } },
        { close: { outcome: 'Delivered' } },
      ],
    });
    const doomed = await start('worker');
    const id = await createCase(w);
    await receiver.waitForRequests(1);
    await doomed.kill('SIGKILL');
    const [inFlight] = await runsOf(id, database!.pool);
    assert.deepEqual([inFlight!.state, inFlight!.current_step], ['running', 1], 'set_attributes was committed, the http_request was under way');

    await start('worker');
    // The dead worker's run is taken over once its lease has expired and its job is re-enqueued.
    const settled = await waitForSettled(id, 'Closed', { pool: database!.pool, timeoutMs: REENQUEUE_AFTER_MS + RUN_DEADLINE_MS });
    assert.equal(settled.outcome, 'Delivered');
    assert.deepEqual(settled.runs.map((r) => [r.state, r.attempts]), [['succeeded', 2]]);
    assert.equal(settled.attributes.first_step, 'done');
    assert.deepEqual(settled.attributes.delivery, { delivered: true });
    assert.equal(receiver.requests.length, 2, 'the request whose outcome was unknown is sent again');
    for (const request of receiver.requests) assert.deepEqual(JSON.parse(request.body), { case_id: id });

    const events = await timelineOf(w, id);
    assert.equal(ofType(events, 'run_started').length, 1);
    assert.deepEqual(ofType(events, 'attributes_changed').map((e) => e.keys), [['first_step'], ['delivery']], 'the first step ran once');
    assert.equal(ofType(events, 'http_request').length, 1);
  });
});

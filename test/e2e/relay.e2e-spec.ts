import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import Bull from 'bull';
import pino from 'pino';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/shared/database/data-source-options.js';
import type { Transaction } from '../../src/shared/database/transaction.js';
import { entityManager, TypeOrmTransactionRunner } from '../../src/shared/database/typeorm-transaction-runner.js';
import { Relay, type RelaySource } from '../../src/shared/queue/relay.js';
import { eventually, isolatedRedisPrefix } from '../support/automation-helpers.js';
import { closeDb, db } from '../support/test-app.js';
import { emptyRedisPrefix } from '../support/test-infra.js';

const silent = pino({ level: 'silent' });

/**
 * Work items in a table of the test's own, taken as the relays' sources take runs and
 * deliveries: marked as handed over in the relay's transaction, SKIP LOCKED.
 */
function tableSource(table: string, taken: 'new' | 'stale'): RelaySource<number> {
  const take = async (tx: Transaction, limit: number) =>
    ((await entityManager(tx).query(
      `WITH taken AS (
         UPDATE ${table} SET enqueued_at = now()
         WHERE id IN (SELECT id FROM ${table} WHERE enqueued_at IS NULL ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
         RETURNING id
       ) SELECT id FROM taken ORDER BY id`,
      [limit],
    )) as { id: number }[]).map((r) => r.id);
  return {
    takeNew: (tx, limit) => (taken === 'new' ? take(tx, limit) : Promise.resolve([])),
    takeExpired: async () => [],
    takeStale: (tx, limit) => (taken === 'stale' ? take(tx, limit) : Promise.resolve([])),
    job: (id) => ({ name: 'work', data: { id }, opts: { jobId: `work:${id}` } }),
  };
}

describe('relays (real Postgres and Redis)', () => {
  const prefix = isolatedRedisPrefix();
  const queue = new Bull('relay-test', process.env.REDIS_URL!, { prefix });
  const table = `relay_test_${randomBytes(4).toString('hex')}`;
  let dataSource: DataSource;
  let transactions: TypeOrmTransactionRunner;

  before(async () => {
    dataSource = await new DataSource(dataSourceOptions({ DATABASE_URL: process.env.DATABASE_URL! })).initialize();
    transactions = new TypeOrmTransactionRunner(dataSource);
    await db().query(`CREATE TABLE ${table} (id int PRIMARY KEY, enqueued_at timestamptz)`);
  });
  after(async () => {
    await db().query(`DROP TABLE IF EXISTS ${table}`);
    await dataSource?.destroy();
    await closeDb();
    await queue.close();
    await emptyRedisPrefix(process.env.REDIS_URL!, prefix);
  });

  it("replaces the data-less husk Bull leaves when Redis lost a job as a worker took it, and leaves a job that still has its data", async () => {
    await db().query(`TRUNCATE ${table}; INSERT INTO ${table} (id) VALUES (1), (2)`);
    // What Bull's move to active leaves when the job's keys vanished under it: a hash with processedOn only.
    await queue.client.hset(queue.toKey('work:1'), 'processedOn', String(Date.now()));
    await queue.add('work', { id: 2, original: true }, { jobId: 'work:2' });
    const relay = new Relay('test relay', tableSource(table, 'stale'), queue, transactions, 100, 15_000, silent);

    assert.equal(await relay.relayOnce(), 2);

    assert.deepEqual((await queue.getJob('work:1'))?.data, { id: 1 }, 'the lost job is on the queue again, with its data');
    assert.deepEqual((await queue.getJob('work:2'))?.data, { id: 2, original: true }, 'a job that still had its data is untouched');
  });

  it('leaves the items of a relay that died before Redis had their jobs free for another relay at once', async () => {
    await db().query(`TRUNCATE ${table}; INSERT INTO ${table} (id) VALUES (11), (12), (13)`);
    // A queue that never answers: the relay's process dies while its jobs are on their way to Redis.
    const stuckQueue = Object.assign(Object.create(queue) as Bull.Queue, { addBulk: () => new Promise<never>(() => undefined) });
    const dying = new Relay('dying relay', tableSource(table, 'new'), stuckQueue, transactions, 100, 15_000, silent);
    const pass = dying.relayOnce().catch((err: unknown) => err);
    const backend = await eventually('the dying relay holds its items', async () => {
      const { rows } = await db().query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE state = 'idle in transaction' AND query LIKE $1`,
        [`%UPDATE ${table}%`],
      );
      return rows[0]?.pid;
    });
    const alive = new Relay('live relay', tableSource(table, 'new'), queue, transactions, 100, 15_000, silent);
    assert.equal(await alive.relayOnce(), 0, 'items being handed over are not taken twice');

    await db().query('SELECT pg_terminate_backend($1)', [backend]); // what Postgres sees when the process is killed
    assert.ok((await pass) instanceof Error, 'the dying pass failed');
    assert.equal(await alive.relayOnce(), 3, 'the dead relay left nothing marked as handed over');
    assert.deepEqual((await Promise.all([11, 12, 13].map((id) => queue.getJob(`work:${id}`)))).map((job) => job?.data), [{ id: 11 }, { id: 12 }, { id: 13 }]);
  });

  it('gives up a batch that Redis does not take within its bound, and leaves its items free', async () => {
    await db().query(`TRUNCATE ${table}; INSERT INTO ${table} (id) VALUES (21)`);
    const stuckQueue = Object.assign(Object.create(queue) as Bull.Queue, { addBulk: () => new Promise<never>(() => undefined) });
    const relay = new Relay('stuck relay', tableSource(table, 'new'), stuckQueue, transactions, 100, 15_000, silent);

    await assert.rejects(relay.relayOnce(), /did not accept the jobs within/);
    assert.deepEqual((await db().query(`SELECT enqueued_at FROM ${table}`)).rows, [{ enqueued_at: null }]);
  });
});

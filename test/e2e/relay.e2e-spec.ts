import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import Bull from 'bull';
import pino from 'pino';
import { Relay, type RelaySource } from '../../src/shared/queue/relay.js';
import { isolatedRedisPrefix } from '../support/automation-helpers.js';
import { emptyRedisPrefix } from '../support/test-infra.js';

/** Work items that are all stale: the relay's first pass looks for lost work (its stale check is due at once). */
function staleSource(ids: number[]): RelaySource<number> & { untaken: number[] } {
  const untaken: number[] = [];
  return {
    untaken,
    takeNew: async () => [],
    takeExpired: async () => [],
    takeStale: async () => ids,
    untake: async (items) => void untaken.push(...items),
    job: (id) => ({ name: 'work', data: { id }, opts: { jobId: `work:${id}` } }),
  };
}

describe('relay re-enqueueing lost work (real Redis)', () => {
  const prefix = isolatedRedisPrefix();
  const queue = new Bull('relay-test', process.env.REDIS_URL!, { prefix });
  after(async () => {
    await queue.close();
    await emptyRedisPrefix(process.env.REDIS_URL!, prefix);
  });

  it("replaces the data-less husk Bull leaves when Redis lost a job as a worker took it, and leaves a job that still has its data", async () => {
    // What Bull's move to active leaves when the job's keys vanished under it: a hash with processedOn only.
    await queue.client.hset(queue.toKey('work:1'), 'processedOn', String(Date.now()));
    await queue.add('work', { id: 2, original: true }, { jobId: 'work:2' });
    const source = staleSource([1, 2]);
    const relay = new Relay('test relay', source, queue, 100, 15_000, pino({ level: 'silent' }));

    assert.equal(await relay.relayOnce(), 2);

    assert.deepEqual((await queue.getJob('work:1'))?.data, { id: 1 }, 'the lost job is on the queue again, with its data');
    assert.deepEqual((await queue.getJob('work:2'))?.data, { id: 2, original: true }, 'a job that still had its data is untouched');
    assert.deepEqual(source.untaken, []);
  });

  it('hands the new work it took to the queue when its look for lost work then fails (a statement cancelled under load), and still reports the failure', async () => {
    // Marked as handed over by the first look: left off the queue, only the failing look would find it again.
    const canceled = Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' });
    const source = { ...staleSource([]), takeNew: async () => [3, 4], takeStale: () => Promise.reject(canceled) };
    const relay = new Relay('test relay', source, queue, 100, 15_000, pino({ level: 'silent' }));

    await assert.rejects(relay.relayOnce(), canceled);

    assert.deepEqual((await queue.getJob('work:3'))?.data, { id: 3 });
    assert.deepEqual((await queue.getJob('work:4'))?.data, { id: 4 });
  });
});

/** A fixed-window count in the real Redis the lane uses (under its prefix). */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { countInWindow } from '../../src/shared/redis/fixed-window.js';
import { createRedisClient } from '../../src/shared/redis/redis.client.js';

const redis = new Redis(process.env.REDIS_URL!);
const key = (name: string) => `${process.env.REDIS_PREFIX}:fixed-window-spec:${name}:${process.pid}`;

describe('countInWindow', () => {
  after(() => redis.quit());

  it('counts each call in the window its first call began, and tells how long the window has left', async () => {
    const counted = [];
    for (let i = 0; i < 3; i++) counted.push(await countInWindow(redis, key('counts'), 60_000));
    assert.deepEqual(counted.map((c) => c.count), [1, 2, 3]);
    for (const { msLeft } of counted) assert.ok(msLeft > 50_000 && msLeft <= 60_000, String(msLeft));
    assert.equal((await countInWindow(redis, key('another'), 60_000)).count, 1, 'each key has its own window');
  });

  it('starts again at one once the window has ended, and a later call does not lengthen it', async () => {
    await countInWindow(redis, key('ends'), 300);
    await new Promise((resolve) => setTimeout(resolve, 150));
    assert.ok((await countInWindow(redis, key('ends'), 300)).msLeft <= 150, 'the window ends when its first call said');
    await new Promise((resolve) => setTimeout(resolve, 250));
    assert.equal((await countInWindow(redis, key('ends'), 300)).count, 1);
  });

  it('throws when Redis does not answer, for the caller to decide what that holds back', async () => {
    const unreachable = createRedisClient({ REDIS_URL: 'redis://127.0.0.1:1', REDIS_CLUSTER: false });
    try {
      await assert.rejects(countInWindow(unreachable, key('down'), 1_000));
    } finally {
      unreachable.disconnect();
    }
  });
});

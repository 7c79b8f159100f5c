import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Env } from '../config/env.js';
import { ServiceUnavailableError } from '../errors/app-error.js';
import type { Logger } from '../logging/logger.js';
import type { RedisClient } from '../redis/redis.client.js';
import { InvalidatedCache } from './invalidated-cache.js';
import { InvalidationBus } from './invalidation-bus.js';

/** A bus that is live and hears its own messages at once, like every instance's subscription. */
class LoopbackBus {
  readonly listeners: ((key: string) => void)[] = [];
  readonly resets: (() => void)[] = [];
  live = true;
  on(_topic: string, listener: (key: string) => void, onReset: () => void): void {
    this.listeners.push(listener);
    this.resets.push(onReset);
  }
  isLive(): boolean {
    return this.live;
  }
  async publish(_topic: string, key: string): Promise<void> {
    for (const listener of this.listeners) listener(key);
  }
}

function cacheOn(bus: LoopbackBus): InvalidatedCache<string> {
  return new InvalidatedCache<string>(bus as unknown as InvalidationBus, 'token', 60_000);
}

/** A loader that answers when the test says so, counting its calls. */
function slowLoader(value: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => { release = resolve; });
  const loader = { calls: 0, release, load: async () => { loader.calls++; await released; return value; } };
  return loader;
}

describe('InvalidatedCache', () => {
  it('does not keep what a look-up read when the key was invalidated while it ran (the look-up raced a delete)', async () => {
    const bus = new LoopbackBus();
    const cache = cacheOn(bus);
    const stale = slowLoader('principal');
    const racing = cache.get('k', stale.load);
    await cache.invalidate('k');
    stale.release();
    assert.equal(await racing, 'principal', 'the racing request itself started before the change');
    let loads = 0;
    assert.equal(await cache.get('k', async () => { loads++; return undefined; }), undefined);
    assert.equal(loads, 1, 'the next look-up goes to the database');
  });

  it('does not keep what a look-up read across a reset (the subscription dropped and came back)', async () => {
    const bus = new LoopbackBus();
    const cache = cacheOn(bus);
    const stale = slowLoader('principal');
    const racing = cache.get('k', stale.load);
    for (const reset of bus.resets) reset();
    stale.release();
    await racing;
    let loads = 0;
    await cache.get('k', async () => { loads++; return 'fresh'; });
    assert.equal(loads, 1);
  });

  it('keeps a look-up that started after the invalidation, and serves it from memory while the bus is live', async () => {
    const bus = new LoopbackBus();
    const cache = cacheOn(bus);
    await cache.invalidate('k');
    let loads = 0;
    const load = async () => { loads++; return 'fresh'; };
    await cache.get('k', load);
    await cache.get('k', load);
    assert.equal(loads, 1);
    bus.live = false;
    await cache.get('k', load);
    assert.equal(loads, 2, 'a bus that cannot hear changes is not trusted');
  });
});

describe('InvalidationBus.publish', () => {
  const env = { REDIS_PREFIX: 'spec' } as Env;
  const logger = { warn: () => undefined } as unknown as Logger;
  const publisher = (outcomes: ('ok' | 'fail' | 'hang')[]) => {
    const sent: string[] = [];
    const client = {
      sent,
      publish: (_channel: string, raw: string) => {
        sent.push(raw);
        const outcome = outcomes.shift() ?? 'fail';
        if (outcome === 'ok') return Promise.resolve(1);
        return outcome === 'hang' ? new Promise<number>(() => undefined) : Promise.reject(new Error('Connection is closed.'));
      },
    };
    return client;
  };

  it('retries a failed or hanging publish', async () => {
    const client = publisher(['fail', 'hang', 'ok']);
    const bus = new InvalidationBus(env, client as unknown as RedisClient, logger);
    await bus.publish('access-token', 'abc');
    assert.equal(client.sent.length, 3);
  });

  it('answers 503 (ServiceUnavailableError) when Redis never takes the message, instead of swallowing it', async () => {
    const client = publisher([]);
    const bus = new InvalidationBus(env, client as unknown as RedisClient, logger);
    let dropped = 0;
    bus.on('access-token', () => dropped++, () => undefined);
    await assert.rejects(bus.publish('access-token', 'abc'), ServiceUnavailableError);
    assert.equal(dropped, 1, 'the entry is still dropped on this instance');
    assert.ok(client.sent.length > 1, 'it was retried');
  });

  it('after answering 503, keeps sending the message until Redis takes it', async () => {
    const client = publisher(['fail', 'fail', 'fail', 'fail', 'fail', 'fail', 'ok']);
    const bus = new InvalidationBus(env, client as unknown as RedisClient, logger);
    await assert.rejects(bus.publish('workflow', '7'), ServiceUnavailableError);
    const deadline = Date.now() + 5_000;
    while (client.sent.length < 7 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(client.sent.slice(5), [JSON.stringify(['workflow', '7']), JSON.stringify(['workflow', '7'])]);
  });

});

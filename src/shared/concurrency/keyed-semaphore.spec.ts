import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KeyedSemaphore } from './keyed-semaphore.js';

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('KeyedSemaphore', () => {
  it('lets each key in up to its capacity, whatever the other keys hold', async () => {
    const s = new KeyedSemaphore<number>({ capacity: 2, maxWaiting: 0, waitMs: 10_000 });
    const a1 = await s.tryAcquire(1);
    const a2 = await s.tryAcquire(1);
    assert.ok(a1 && a2);
    assert.equal(await s.tryAcquire(1), undefined, 'a third holder of key 1 is refused');
    const b1 = await s.tryAcquire(2);
    assert.ok(b1, 'key 2 is let in while key 1 is full');
    a1();
    a1(); // a second release gives nothing back
    const a3 = await s.tryAcquire(1);
    assert.ok(a3);
    assert.equal(await s.tryAcquire(1), undefined);
    a2();
    a3();
    b1();
  });

  it('queues a key\'s waiters in order, up to maxWaiting, and refuses the next one at once', async () => {
    const s = new KeyedSemaphore<string>({ capacity: 1, maxWaiting: 2, waitMs: 10_000 });
    const held = await s.tryAcquire('a');
    const order: string[] = [];
    const w1 = s.tryAcquire('a').then((release) => (order.push('w1'), release));
    const w2 = s.tryAcquire('a').then((release) => (order.push('w2'), release));
    assert.equal(await s.tryAcquire('a'), undefined, 'the third waiter is refused without waiting');
    await settled();
    assert.deepEqual(order, []);
    held!();
    await settled();
    assert.deepEqual(order, ['w1']);
    (await w1)!();
    await settled();
    assert.deepEqual(order, ['w1', 'w2']);
    (await w2)!();
  });

  it('refuses a waiter whose wait runs out, and the ones behind it still get their turn', async () => {
    const s = new KeyedSemaphore<number>({ capacity: 1, maxWaiting: 2, waitMs: 20 });
    const held = await s.tryAcquire(1);
    assert.equal(await s.tryAcquire(1), undefined, 'refused after waitMs');
    const late = s.tryAcquire(1);
    held!();
    const release = await late;
    assert.ok(release);
    release();
  });

  it('forgets a key once it has no holders and no waiters, so idle keys cost no memory', async () => {
    const s = new KeyedSemaphore<number>({ capacity: 1, maxWaiting: 1, waitMs: 20 });
    const releases = await Promise.all(Array.from({ length: 100 }, (_, key) => s.tryAcquire(key)));
    assert.equal(s.size, 100);
    const timedOut = s.tryAcquire(0);
    for (const release of releases.slice(1)) release!();
    assert.equal(s.size, 1, 'only key 0 still has a holder and a waiter');
    assert.equal(await timedOut, undefined);
    releases[0]!();
    assert.equal(s.size, 0);
  });
});

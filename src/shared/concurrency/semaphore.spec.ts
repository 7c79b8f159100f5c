import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AcquireAbandonedError, Semaphore } from './semaphore.js';

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('Semaphore', () => {
  it('lets holders in up to the capacity, the next one when a share comes back, in order', async () => {
    const s = new Semaphore(2);
    const order: string[] = [];
    const a = await s.acquire();
    const b = await s.acquire();
    const c = s.acquire().then((release) => (order.push('c'), release));
    const d = s.acquire().then((release) => (order.push('d'), release));
    await settled();
    assert.deepEqual(order, []);
    a();
    a(); // a second release gives nothing back
    await settled();
    assert.deepEqual(order, ['c']);
    b();
    await settled();
    assert.deepEqual(order, ['c', 'd']);
    (await c)();
    (await d)();
  });

  it('weighs shares: a large waiter at the head holds back smaller ones behind it', async () => {
    const s = new Semaphore(10);
    const first = await s.acquire(6);
    const order: string[] = [];
    const large = s.acquire(8).then((release) => (order.push('large'), release));
    const small = s.acquire(1).then((release) => (order.push('small'), release));
    await settled();
    assert.deepEqual(order, [], '4 are free, but the large one came first');
    first();
    await settled();
    assert.deepEqual(order, ['large', 'small']);
    (await large)();
    (await small)();
  });

  it('caps a share at the capacity, so an oversized one waits for all of it instead of forever', async () => {
    const s = new Semaphore(4);
    const release = await s.acquire(100);
    let second = false;
    void s.acquire(1).then(() => (second = true));
    await settled();
    assert.equal(second, false);
    release();
    await settled();
    assert.equal(second, true);
  });

  it('drops a waiter whose signal aborts, and the ones behind it move up', async () => {
    const s = new Semaphore(1);
    const held = await s.acquire();
    const gone = new AbortController();
    const abandoned = s.acquire(1, gone.signal);
    let next = false;
    void s.acquire(1).then(() => (next = true));
    gone.abort();
    await assert.rejects(abandoned, AcquireAbandonedError);
    held();
    await settled();
    assert.equal(next, true);
    await assert.rejects(s.acquire(1, AbortSignal.abort()), AcquireAbandonedError);
  });
});

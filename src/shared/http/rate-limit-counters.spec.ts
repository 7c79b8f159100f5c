import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { type Settle, WindowCounters } from './rate-limit-counters.js';

const WINDOW_MS = 60_000;

/** The shared store as Redis keeps it: counts by key, each until its window ends, with the settles it was asked for. */
function sharedStore(clock: { now: number }) {
  const counts = new Map<string, { count: number; ends: number }>();
  const calls: { key: string; n: number }[] = [];
  let down = false;
  const settle: Settle = async (key, n, windowMs) => {
    calls.push({ key, n });
    if (down) throw new Error('store down');
    const held = counts.get(key);
    const entry = held && held.ends > clock.now ? held : { count: 0, ends: clock.now + windowMs };
    entry.count += n;
    counts.set(key, entry);
    return { current: entry.count, ttl: entry.ends - clock.now };
  };
  return { count: (key: string) => counts.get(key)?.count, calls, settle, setDown: (value: boolean) => (down = value) };
}

function countersOn(store: ReturnType<typeof sharedStore>, clock: { now: number }, maxKeys = 100) {
  return new WindowCounters(store.settle, { windowMs: WINDOW_MS, settleMs: 60_000_000, maxKeys, now: () => clock.now });
}

/** Runs the pending settle pass at once (the tests' settle interval is too long to fire). */
const settleNow = (counters: WindowCounters) => (counters as unknown as { settleAll(): Promise<void> }).settleAll();

describe('WindowCounters', () => {
  it('settles a key once per window, counts the rest here, and sends them in one settle', async () => {
    const clock = { now: 1000 };
    const store = sharedStore(clock);
    const counters = countersOn(store, clock);
    const answers = [];
    for (let i = 0; i < 5; i++) {
      answers.push(await counters.increment('a'));
      clock.now += 100;
    }
    assert.deepEqual(answers.map((a) => a.current), [1, 2, 3, 4, 5]);
    assert.deepEqual(answers.map((a) => a.ttl), [WINDOW_MS, WINDOW_MS - 100, WINDOW_MS - 200, WINDOW_MS - 300, WINDOW_MS - 400]);
    assert.deepEqual(store.calls, [{ key: 'a', n: 1 }]);
    await settleNow(counters);
    assert.deepEqual(store.calls.at(-1), { key: 'a', n: 4 });
    assert.equal(store.count('a'), 5);
    await counters.close();
  });

  it('countHere counts a key whose window is known here and answers at once; a key new here or past its window is left to increment, counted nowhere', async () => {
    const clock = { now: 1000 };
    const store = sharedStore(clock);
    const counters = countersOn(store, clock);
    assert.equal(counters.countHere('a'), undefined);
    assert.equal(store.count('a'), undefined);
    await counters.increment('a');
    clock.now += 100;
    assert.deepEqual(counters.countHere('a'), { current: 2, ttl: WINDOW_MS - 100 });
    assert.deepEqual(store.calls, [{ key: 'a', n: 1 }]);
    clock.now += WINDOW_MS;
    assert.equal(counters.countHere('a'), undefined);
    assert.deepEqual((await counters.increment('a')).current, 1);
    await counters.close();
  });

  /** Counters whose settles reach the store only when the test lets them (`held`, in order), as a slow round trip to Redis would. */
  function heldCounters(store: ReturnType<typeof sharedStore>, clock: { now: number }) {
    const held: (() => void)[] = [];
    const heldSettle: Settle = (key, n, windowMs) => new Promise((resolve) => held.push(() => resolve(store.settle(key, n, windowMs))));
    return { held, counters: new WindowCounters(heldSettle, { windowMs: WINDOW_MS, settleMs: 60_000_000, maxKeys: 100, now: () => clock.now }) };
  }

  it('keeps every count when a key\'s first requests settle together: the later settle does not overwrite what was counted meanwhile', async () => {
    const clock = { now: 1000 };
    const store = sharedStore(clock);
    const { held, counters } = heldCounters(store, clock);
    const first = counters.increment('a');
    const second = counters.increment('a');
    assert.equal(held.length, 2, 'neither request found a counter: both settle');
    held[0]!();
    assert.equal((await first).current, 1);
    // Counted here, on the counter the first request made.
    assert.equal((await counters.increment('a')).current, 2);
    held[1]!();
    assert.equal((await second).current, 3);
    const settling = settleNow(counters);
    assert.equal(held.length, 3);
    held[2]!();
    await settling;
    assert.equal(store.count('a'), 3);
    assert.equal((await counters.increment('a')).current, 4);
    const closing = counters.close();
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(held.length, 4, 'closing settles what is left');
    held[3]!();
    await closing;
    assert.equal(store.count('a'), 4);
  });

  it('counts what a settle in flight is sending: a request made while its round trip is out still sees those requests', async () => {
    const clock = { now: 1000 };
    const store = sharedStore(clock);
    const { held, counters } = heldCounters(store, clock);
    const first = counters.increment('a');
    held[0]!();
    await first;
    for (let i = 2; i <= 5; i++) assert.equal((await counters.increment('a')).current, i);
    const settling = settleNow(counters);
    assert.deepEqual(held.length, 2, 'the four counted here are on their way');
    assert.equal((await counters.increment('a')).current, 6);
    held[1]!();
    await settling;
    assert.equal((await counters.increment('a')).current, 7);
    assert.equal(store.count('a'), 5);
    const closing = counters.close();
    await new Promise((resolve) => setImmediate(resolve));
    held[2]!();
    await closing;
    assert.equal(store.count('a'), 7);
  });

  it('puts back what a failed settle was sending, without counting it twice', async () => {
    const clock = { now: 1000 };
    const store = sharedStore(clock);
    const counters = countersOn(store, clock);
    await counters.increment('a');
    assert.equal((await counters.increment('a')).current, 2);
    store.setDown(true);
    await settleNow(counters);
    assert.equal((await counters.increment('a')).current, 3);
    store.setDown(false);
    await settleNow(counters);
    assert.equal(store.count('a'), 3);
    assert.equal((await counters.increment('a')).current, 4);
    await counters.close();
  });

  it('starts the next window when the later of two first requests reached the store after the window ended', async () => {
    const clock = { now: 1000 };
    const store = sharedStore(clock);
    await store.settle('a', 5, WINDOW_MS); // other processes' requests: the window ends at 61,000
    const { held, counters } = heldCounters(store, clock);
    clock.now = 60_980;
    const first = counters.increment('a');
    const second = counters.increment('a');
    clock.now = 60_990;
    held[0]!();
    assert.deepEqual(await first, { current: 6, ttl: 10 });
    clock.now = 61_005;
    held[1]!();
    assert.deepEqual(await second, { current: 1, ttl: WINDOW_MS });
    assert.equal(store.count('a'), 1);
    await counters.close();
  });

  it('starts a new window after the one the store started with the first request', async () => {
    const clock = { now: 1000 };
    const store = sharedStore(clock);
    const counters = countersOn(store, clock);
    await counters.increment('a');
    clock.now += WINDOW_MS - 1;
    assert.equal((await counters.increment('a')).current, 2);
    clock.now += 1;
    assert.deepEqual(await counters.increment('a'), { current: 1, ttl: WINDOW_MS });
    await counters.close();
  });

  it('never answers above the true shared count, and every process counting the key learns it within two settle passes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), fc.boolean()), { minLength: 1, maxLength: 60 }), async (steps) => {
        const clock = { now: 1000 };
        const store = sharedStore(clock);
        const processes = [countersOn(store, clock), countersOn(store, clock), countersOn(store, clock)];
        let sent = 0;
        // Each process counts the key from the start, so none settles it at once at the end.
        for (const [p, settleFirst] of [[0, false], [1, false], [2, false], ...steps] as const) {
          if (settleFirst) await settleNow(processes[p]!);
          const { current } = await processes[p]!.increment('k');
          sent += 1;
          assert.ok(current <= sent, `answered ${current} after ${sent} requests`);
        }
        // Every process counts the key once more; two passes later each knows every request.
        for (const p of processes) {
          await p.increment('k');
          sent += 1;
        }
        for (let pass = 0; pass < 2; pass++) for (const p of processes) await settleNow(p);
        for (const p of processes) assert.equal((await p.increment('k')).current, sent + 1, 'each process knows every request settled before');
        for (const p of processes) await p.close();
      }),
      { numRuns: 200 },
    );
  });

  it('while the store fails: a key never settled is not counted (the error goes to the caller), one settled is counted here and sent once the store is back', async () => {
    const clock = { now: 1000 };
    const store = sharedStore(clock);
    const counters = countersOn(store, clock);
    await counters.increment('known');
    store.setDown(true);
    await assert.rejects(counters.increment('new'), /store down/);
    assert.equal((await counters.increment('known')).current, 2);
    await settleNow(counters);
    assert.equal((await counters.increment('known')).current, 3);
    store.setDown(false);
    await settleNow(counters);
    assert.equal(store.count('known'), 3);
    assert.equal(store.count('new'), undefined);
    await counters.close();
  });

  it('counts at most maxKeys here; past them a key is settled on each request, and keys whose window ended make room', async () => {
    const clock = { now: 1000 };
    const store = sharedStore(clock);
    const counters = countersOn(store, clock, 2);
    await counters.increment('a');
    await counters.increment('b');
    await counters.increment('c');
    await counters.increment('c');
    assert.deepEqual(store.calls.map((c) => c.key), ['a', 'b', 'c', 'c']);
    clock.now += WINDOW_MS;
    await counters.increment('c');
    await counters.increment('c');
    assert.deepEqual(store.calls.map((c) => c.key), ['a', 'b', 'c', 'c', 'c']);
    await counters.close();
  });
});

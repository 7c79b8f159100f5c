import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Transaction } from '../database/transaction.js';
import { CacheTrust } from './cache-trust.js';
import { type Generations, InvalidatedCache } from './invalidated-cache.js';

/** Trusted caches; `commit` runs the change at once, as the database would inside a transaction. */
class FakeGenerations extends CacheTrust implements Generations {
  trusted = true;
  commits = 0;
  override isTrusted(): boolean {
    return this.trusted;
  }
  async commit<T>(_cache: string, _key: string, change: (tx: Transaction) => Promise<T>): Promise<T> {
    this.commits++;
    return change({} as Transaction);
  }
}

function cacheOn(generations: FakeGenerations): InvalidatedCache<string> {
  return new InvalidatedCache<string>(generations, 'tokens', 60_000);
}

/** A loader that answers when the test says so, counting its calls. */
function slowLoader(value: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => { release = resolve; });
  const loader = { calls: 0, release, load: async () => { loader.calls++; await released; return value; } };
  return loader;
}

/** How many times the next look-up of 'k' calls its loader (0: served from memory). */
async function loadsOfNextGet(cache: InvalidatedCache<string>): Promise<number> {
  let loads = 0;
  await cache.get('k', async () => { loads++; return 'fresh'; });
  return loads;
}

describe('InvalidatedCache', () => {
  it('does not keep what a look-up read when the key was changed on this instance while it ran (the look-up raced a delete)', async () => {
    const generations = new FakeGenerations();
    const cache = cacheOn(generations);
    const stale = slowLoader('principal');
    const racing = cache.get('k', stale.load);
    await cache.change('k', async () => undefined);
    stale.release();
    assert.equal(await racing, 'principal', 'the racing request itself started before the change');
    let loads = 0;
    assert.equal(await cache.get('k', async () => { loads++; return undefined; }), undefined);
    assert.equal(loads, 1, 'the next look-up goes to the database');
  });

  it('does not keep what a look-up read across a reset (a poll saw another instance\'s change)', async () => {
    const generations = new FakeGenerations();
    const cache = cacheOn(generations);
    const stale = slowLoader('principal');
    const racing = cache.get('k', stale.load);
    generations.reset();
    stale.release();
    await racing;
    assert.equal(await loadsOfNextGet(cache), 1, 'the next look-up goes to the database');
  });

  it('a key another instance changed is dropped, with a look-up of it under way; the other keys stay', async () => {
    const generations = new FakeGenerations();
    const cache = cacheOn(generations);
    generations.heard('1', [], 0, 0);
    await cache.get('other', async () => 'kept');
    const stale = slowLoader('principal');
    const racing = cache.get('k', stale.load);
    generations.heard('3', [{ cache: 'tokens', key: 'k' }, { cache: 'workflows', key: 'other' }], 0, 0);
    stale.release();
    await racing;
    assert.equal(await loadsOfNextGet(cache), 1, 'the next look-up of the changed key goes to the database');
    assert.equal(await cache.get('other', async () => 'reloaded'), 'kept', 'another key, and the same key of another cache, stay');
  });

  it('a change goes through the generation bump, and answers what the change answered', async () => {
    const generations = new FakeGenerations();
    const cache = cacheOn(generations);
    assert.equal(await cache.change('k', async () => 'done'), 'done');
    assert.equal(generations.commits, 1);
  });

  it('a change that fails still drops the entry here (a connection lost during COMMIT leaves the outcome unknown)', async () => {
    const generations = new FakeGenerations();
    const cache = cacheOn(generations);
    await cache.get('k', async () => 'cached');
    await assert.rejects(cache.change('k', async () => { throw new Error('connection lost'); }), /connection lost/);
    assert.equal(await loadsOfNextGet(cache), 1, 'the next look-up goes to the database');
  });

  it('keeps a look-up that started after the change, and serves it from memory only while trusted', async () => {
    const generations = new FakeGenerations();
    const cache = cacheOn(generations);
    await cache.change('k', async () => undefined);
    let loads = 0;
    const load = async () => { loads++; return 'fresh'; };
    await cache.get('k', load);
    await cache.get('k', load);
    assert.equal(loads, 1);
    generations.trusted = false;
    await cache.get('k', load);
    assert.equal(loads, 2, 'an instance that cannot hear changes does not use its cache');
  });
});

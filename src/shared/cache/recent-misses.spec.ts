import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CacheTrust } from './cache-trust.js';
import { RecentMisses } from './recent-misses.js';

class Trusted extends CacheTrust {
  trusted = true;
  override isTrusted(): boolean {
    return this.trusted;
  }
}

/** Misses `key` through `misses` the way a caller does: check, look up (nothing), record. */
function miss(misses: RecentMisses, key: string): boolean {
  const seen = misses.check(key);
  if (seen.known) return true;
  misses.missed(key, seen.generation);
  return false;
}

describe('RecentMisses', () => {
  it('remembers a miss for its time to live, and only while the caches are trusted', async () => {
    const trust = new Trusted();
    const misses = new RecentMisses(trust, 'test', 50);
    assert.equal(miss(misses, 'k'), false, 'the first look-up goes to the database');
    assert.equal(miss(misses, 'k'), true, 'the second does not');
    trust.trusted = false;
    assert.equal(misses.check('k').known, false, 'an instance that cannot hear changes does not use it');
    trust.trusted = true;
    await new Promise((resolve) => setTimeout(resolve, 60));
    assert.equal(misses.check('k').known, false, 'expired');
  });

  it('forgets a key at once, and does not keep a miss whose look-up ran across the change; a reset forgets everything', () => {
    const trust = new Trusted();
    const misses = new RecentMisses(trust, 'test', 60_000);
    miss(misses, 'a');
    const racing = misses.check('b');
    misses.forget('a');
    assert.equal(misses.check('a').known, false);
    assert.ok(!racing.known);
    misses.missed('b', racing.generation);
    assert.equal(misses.check('b').known, false, 'the racing look-up may have read the database before the change');
    miss(misses, 'c');
    trust.reset();
    assert.equal(misses.check('c').known, false);
  });

  it('holds at most maxEntries keys, the oldest going first', () => {
    const misses = new RecentMisses(new Trusted(), 'test', 60_000, 2);
    for (const key of ['a', 'b', 'c']) miss(misses, key);
    assert.deepEqual(['a', 'b', 'c'].map((key) => misses.check(key).known), [false, true, true]);
  });
});

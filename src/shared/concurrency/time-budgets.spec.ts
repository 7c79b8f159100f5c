import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TimeBudgets } from './time-budgets.js';

/** A budget on a clock the test moves. */
function budgets(msPerSecond: number, burstMs: number) {
  const clock = { now: 0 };
  return { clock, budgets: new TimeBudgets<number>({ msPerSecond, burstMs }, () => clock.now) };
}

describe('TimeBudgets', () => {
  it("lets a key's work start while its balance is above zero, then makes it wait until it earned its debt back", () => {
    const { clock, budgets: b } = budgets(100, 1_000);
    assert.equal(b.waitMs(1), 0, 'a key never seen starts with a full balance');
    b.charge(1, 700);
    assert.equal(b.waitMs(1), 0, '300 ms left');
    b.charge(1, 1_100); // the second piece cost more than what was left: 800 ms of debt
    assert.equal(b.waitMs(1), 8_000, '800 ms earned back at 100 ms a second');
    clock.now = 7_990;
    assert.equal(b.waitMs(1), 10, 'still 1 ms short');
    clock.now = 8_001;
    assert.equal(b.waitMs(1), 0);
  });

  it("charges each key alone: one key's debt never holds another back", () => {
    const { budgets: b } = budgets(100, 1_000);
    b.charge(1, 5_000);
    assert.ok(b.waitMs(1) > 0);
    assert.equal(b.waitMs(2), 0);
  });

  it('saves up at most the burst, however long a key was idle', () => {
    const { clock, budgets: b } = budgets(100, 1_000);
    b.charge(1, 500);
    clock.now = 3_600_000;
    b.charge(1, 1_000); // a full burst, no more
    assert.equal(b.waitMs(1), 1, 'the balance is exactly zero: the next piece waits the least it can');
    b.charge(1, 1);
    assert.equal(b.waitMs(1), 10);
  });

  it('forgets a key once its balance is full again, so idle keys cost no memory', () => {
    const { clock, budgets: b } = budgets(100, 1_000);
    for (let key = 0; key < 63; key += 1) b.charge(key, 100);
    assert.equal(b.size, 63);
    clock.now = 1_000; // every key has earned its 100 ms back
    b.charge(1_000, 100); // the 64th key: the full ones are walked and forgotten
    assert.equal(b.size, 1);
    clock.now = 2_000;
    assert.equal(b.waitMs(1_000), 0);
    assert.equal(b.size, 0, 'a key found full is forgotten when looked at');
  });
});

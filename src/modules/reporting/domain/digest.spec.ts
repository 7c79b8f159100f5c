import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DIGEST_SENDS_KEPT_MS, duePeriods, lastPeriodEnd, MAX_CATCH_UP_PERIODS, periodEndingNow } from './digest.js';

const daily = (hourUtc: number) => ({ schedule: 'daily' as const, hourUtc, weekday: null });
const weekly = (weekday: number, hourUtc: number) => ({ schedule: 'weekly' as const, hourUtc, weekday });
const at = (iso: string) => new Date(iso);

describe('digest periods', () => {
  it('ends a daily period at hour_utc, today if it has passed, else yesterday', () => {
    assert.equal(lastPeriodEnd(daily(8), at('2026-11-24T08:00:00Z')).toISOString(), '2026-11-24T08:00:00.000Z');
    assert.equal(lastPeriodEnd(daily(8), at('2026-11-24T07:59:59Z')).toISOString(), '2026-11-23T08:00:00.000Z');
    assert.equal(lastPeriodEnd(daily(0), at('2026-11-24T23:00:00Z')).toISOString(), '2026-11-24T00:00:00.000Z');
  });

  it('ends a weekly period on its ISO weekday (2026-11-24 is a Tuesday)', () => {
    assert.equal(lastPeriodEnd(weekly(2, 6), at('2026-11-24T07:00:00Z')).toISOString(), '2026-11-24T06:00:00.000Z');
    assert.equal(lastPeriodEnd(weekly(2, 9), at('2026-11-24T07:00:00Z')).toISOString(), '2026-11-17T09:00:00.000Z');
    assert.equal(lastPeriodEnd(weekly(1, 0), at('2026-11-24T07:00:00Z')).toISOString(), '2026-11-23T00:00:00.000Z');
    assert.equal(lastPeriodEnd(weekly(7, 12), at('2026-11-24T07:00:00Z')).toISOString(), '2026-11-22T12:00:00.000Z');
  });

  it('is due for every period ended since the digest was created, the last seven at most', () => {
    assert.deepEqual(duePeriods(daily(8), at('2026-11-24T07:00:00Z'), at('2026-11-24T07:59:00Z')), []);
    const three = duePeriods(daily(8), at('2026-11-21T09:00:00Z'), at('2026-11-24T10:00:00Z'));
    assert.deepEqual(three.map((p) => [p.start.toISOString(), p.end.toISOString()]), [
      ['2026-11-21T08:00:00.000Z', '2026-11-22T08:00:00.000Z'],
      ['2026-11-22T08:00:00.000Z', '2026-11-23T08:00:00.000Z'],
      ['2026-11-23T08:00:00.000Z', '2026-11-24T08:00:00.000Z'],
    ]);
    const long = duePeriods(daily(8), at('2026-01-01T00:00:00Z'), at('2026-11-24T10:00:00Z'));
    assert.equal(long.length, MAX_CATCH_UP_PERIODS);
    assert.equal(long.at(-1)!.end.toISOString(), '2026-11-24T08:00:00.000Z');
  });

  it('never finds due a period that ended more than DIGEST_SENDS_KEPT_MS ago: the purge never frees a period to be sent again', () => {
    for (const schedule of [daily(0), daily(23), weekly(1, 0), weekly(7, 23)]) {
      for (let hours = 0; hours < 24 * 15; hours += 5) {
        const now = new Date(Date.parse('2026-11-24T00:17:00Z') + hours * 3_600_000);
        const [oldest] = duePeriods(schedule, at('2026-01-01T00:00:00Z'), now);
        assert.ok(oldest!.end.getTime() > now.getTime() - DIGEST_SENDS_KEPT_MS, `${JSON.stringify(schedule)} at ${now.toISOString()}`);
      }
    }
  });

  it('sends by hand the period that ends with the current hour', () => {
    const p = periodEndingNow(weekly(1, 0), at('2026-11-24T10:20:00Z'));
    assert.deepEqual([p.start.toISOString(), p.end.toISOString()], ['2026-11-17T11:00:00.000Z', '2026-11-24T11:00:00.000Z']);
  });
});

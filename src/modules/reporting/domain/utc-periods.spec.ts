import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { type GrainSpan, tileWithUtcPeriods } from './utc-periods.js';

const HOUR_MS = 3_600_000;

/** Each period a span holds, as [start, end) in ms. */
function periods({ grain, from, to }: GrainSpan): [number, number][] {
  const out: [number, number][] = [];
  for (let t = from.getTime(); t < to.getTime(); ) {
    const d = new Date(t);
    const next =
      grain === 'hour' ? t + HOUR_MS : grain === 'day' ? t + 24 * HOUR_MS : Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
    out.push([t, next]);
    t = next;
  }
  return out;
}

const aligned = (grain: GrainSpan['grain'], t: number) => {
  const d = new Date(t);
  if (grain === 'hour') return t % HOUR_MS === 0;
  if (grain === 'day') return t % (24 * HOUR_MS) === 0;
  return t % (24 * HOUR_MS) === 0 && d.getUTCDate() === 1;
};

describe('tileWithUtcPeriods', () => {
  it('tiles a year from an odd hour with the hours and days at its ends and the months between', () => {
    const spans = tileWithUtcPeriods(new Date('2025-11-24T19:00:00Z'), new Date('2026-11-24T19:00:00Z'));
    assert.deepEqual(
      spans.map((s) => [s.grain, s.from.toISOString(), s.to.toISOString()]),
      [
        ['hour', '2025-11-24T19:00:00.000Z', '2025-11-25T00:00:00.000Z'],
        ['hour', '2026-11-24T00:00:00.000Z', '2026-11-24T19:00:00.000Z'],
        ['day', '2025-11-25T00:00:00.000Z', '2025-12-01T00:00:00.000Z'],
        ['day', '2026-11-01T00:00:00.000Z', '2026-11-24T00:00:00.000Z'],
        ['month', '2025-12-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z'],
      ],
    );
  });

  it('covers any range of whole hours exactly once, with periods aligned to their grain and few of them', () => {
    const hour = fc.integer({ min: 490_000, max: 510_000 }); // hours since 1970: 2025 to 2028
    fc.assert(
      fc.property(hour, fc.integer({ min: 1, max: 366 * 24 }), (start, length) => {
        const from = start * HOUR_MS;
        const to = from + length * HOUR_MS;
        const spans = tileWithUtcPeriods(new Date(from), new Date(to));
        const all = spans.flatMap((s) => periods(s).map(([a, b]) => ({ grain: s.grain, a, b }))).sort((x, y) => x.a - y.a);
        assert.equal(all[0]!.a, from);
        assert.equal(all.at(-1)!.b, to);
        all.forEach((p, i) => {
          assert.ok(aligned(p.grain, p.a) && aligned(p.grain, p.b), `${p.grain} ${new Date(p.a).toISOString()} is aligned`);
          if (i > 0) assert.equal(p.a, all[i - 1]!.b, 'no gap and no overlap');
        });
        const count = (grain: string) => all.filter((p) => p.grain === grain).length;
        assert.ok(count('hour') <= 46 && count('day') <= 60 && count('month') <= 13, JSON.stringify(spans));
      }),
      { numRuns: 500 },
    );
  });

  it('refuses a range that does not start and end on whole hours', () => {
    assert.throws(() => tileWithUtcPeriods(new Date('2026-01-01T00:30:00Z'), new Date('2026-01-02T00:00:00Z')));
  });
});

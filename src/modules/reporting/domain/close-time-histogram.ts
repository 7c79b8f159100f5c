import { bucketUpperBound } from './close-time-bucket.js';

export interface CloseTimePercentiles {
  p50: number | null;
  p90: number | null;
  count: number;
}

/**
 * p50 and p90 of a time-to-close histogram given as counts by bucket (see close-time-bucket.ts),
 * each answered as its bucket's upper bound: at most 9% above the exact figure. Null when
 * nothing closed.
 */
export function percentiles(counts: ReadonlyMap<number, number>): CloseTimePercentiles {
  const buckets = [...counts.entries()].filter(([, n]) => n > 0).sort(([a], [b]) => a - b);
  const count = buckets.reduce((sum, [, n]) => sum + n, 0);
  const at = (q: number): number | null => {
    const rank = Math.ceil(q * count);
    let seen = 0;
    for (const [bucket, n] of buckets) {
      seen += n;
      if (seen >= rank) return bucketUpperBound(bucket);
    }
    return null;
  };
  return { p50: at(0.5), p90: at(0.9), count };
}

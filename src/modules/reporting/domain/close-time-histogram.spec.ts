import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bucketUpperBound, closeTimeBucket } from './close-time-bucket.js';
import { percentiles } from './close-time-histogram.js';

describe('close time histogram', () => {
  it('puts a time in the bucket whose upper bound is the first at or above it, within 9%', () => {
    for (const seconds of [2, 3, 59, 60, 3600, 7200, 86_400, 2_592_000]) {
      const bound = bucketUpperBound(closeTimeBucket(seconds));
      assert.ok(bound >= seconds - 0.5 && bound <= seconds * 1.091, `${seconds} s -> ${bound} s`);
    }
    assert.equal(closeTimeBucket(0), 0);
    assert.equal(closeTimeBucket(1), 0);
    assert.equal(closeTimeBucket(2), 8);
    assert.equal(closeTimeBucket(1e12), 255);
  });

  it('answers p50 and p90 from the merged counts, the same whichever way they were split', () => {
    // 7200 s is in bucket 103 (up to 7512 s), 60 s in 48 (up to 64 s), one day in 132 (up to 92 682 s).
    const merged = new Map([[closeTimeBucket(60), 5], [closeTimeBucket(7200), 4], [closeTimeBucket(86_400), 1]]);
    assert.deepEqual(percentiles(merged), { p50: 64, p90: 7512, count: 10 });
    assert.deepEqual(percentiles(new Map()), { p50: null, p90: null, count: 0 });
    assert.deepEqual(percentiles(new Map([[closeTimeBucket(86_400), 1]])), { p50: 92_682, p90: 92_682, count: 1 });
  });
});

/**
 * The buckets of a case's time to close (creation to Closed), as reports count it: fixed and
 * log-scaled, so counts by bucket of any hours and workflows add up to the histogram of their
 * union. Bucket b holds the times t with 2^((b-1)/8) < t <= 2^(b/8) seconds (bucket 0: up to one
 * second); the last bucket (255, about 2^32 seconds) holds anything longer.
 */
export const BUCKETS_PER_DOUBLING = 8;
export const LAST_BUCKET = 255;

/** The bucket of a time to close, in seconds. */
export function closeTimeBucket(seconds: number): number {
  if (!(seconds > 1)) return 0;
  return Math.min(LAST_BUCKET, Math.ceil(BUCKETS_PER_DOUBLING * Math.log2(seconds)));
}

/** The upper bound of a bucket, in whole seconds. */
export function bucketUpperBound(bucket: number): number {
  return Math.round(2 ** (bucket / BUCKETS_PER_DOUBLING));
}

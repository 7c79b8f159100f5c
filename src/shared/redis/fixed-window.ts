import type { RedisConnection } from './redis.client.js';

export interface WindowCount {
  /** Counts in the window so far, this one included. */
  count: number;
  /** Milliseconds until the window ends and the count starts again. */
  msLeft: number;
}

/**
 * Counts one more at `key`, a fixed window of `windowMs` that its first count begins (set and
 * counted in one transaction, so every instance shares it). Throws when Redis does not answer:
 * the caller decides whether that holds anything back.
 */
export async function countInWindow(redis: RedisConnection, key: string, windowMs: number): Promise<WindowCount> {
  const answers = (await redis.multi().set(key, '0', 'PX', windowMs, 'NX').incr(key).pttl(key).exec()) as [unknown, unknown][];
  return { count: Number(answers[1]![1]), msLeft: Number(answers[2]![1]) };
}

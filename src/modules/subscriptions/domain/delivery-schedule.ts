/** When a failed delivery is tried again, and when a failing subscription is disabled. */

/** Exponential backoff from DELIVERY_RETRY_BASE_MS, times 4 per attempt, capped at 6 hours, ±20% jitter. */
export function retryDelayMs(baseMs: number, attempt: number): number {
  const delay = Math.min(baseMs * 4 ** (attempt - 1), 6 * 3600_000);
  return Math.round(delay * (0.8 + Math.random() * 0.4));
}

/** The `disabled_reason` of a subscription disabled after failing `disableAfterMs` (DELIVERY_DISABLE_AFTER_MS). */
export function disabledReason(disableAfterMs: number): string {
  return `deliveries failed for more than ${duration(disableAfterMs)} without a success`;
}

/** "3 days", "2 hours", "90 seconds": the largest unit that divides it, in seconds at least. */
function duration(ms: number): string {
  const units: [string, number][] = [['day', 86_400_000], ['hour', 3_600_000], ['minute', 60_000], ['second', 1000]];
  const [unit, size] = units.find(([, size]) => ms >= size && ms % size === 0) ?? ['second', 1000];
  const n = Math.floor(ms / size);
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

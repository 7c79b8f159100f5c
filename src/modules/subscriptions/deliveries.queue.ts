import type { JobOptions } from 'bull';

export const DELIVERIES_QUEUE = 'deliveries';
export const DELIVER_JOB = 'deliver';

export interface DeliverJob {
  deliveryId: number;
}

/**
 * One job per attempt: the id makes a repeated enqueue of the same attempt harmless. A job that
 * fails (Postgres unreachable) is retried by Bull, then dropped so the relay can enqueue it again.
 */
export function deliverJobOptions(deliveryId: number, attempts: number): JobOptions {
  return {
    jobId: `delivery:${deliveryId}:${attempts}`,
    attempts: 3,
    backoff: { type: 'exponential', delay: 1000 },
    removeOnComplete: true,
    removeOnFail: true,
  };
}

/** Exponential backoff from DELIVERY_RETRY_BASE_MS, times 4 per attempt, capped at 6 hours, ±20% jitter. */
export function retryDelayMs(baseMs: number, attempt: number): number {
  const delay = Math.min(baseMs * 4 ** (attempt - 1), 6 * 3600_000);
  return Math.round(delay * (0.8 + Math.random() * 0.4));
}

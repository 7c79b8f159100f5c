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

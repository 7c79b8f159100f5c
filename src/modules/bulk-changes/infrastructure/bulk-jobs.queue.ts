import type { JobOptions } from 'bull';
import type { BulkJobRef } from '../application/bulk-job-store.js';

export const BULK_JOBS_QUEUE = 'bulk-jobs';
export const RUN_BULK_JOB = 'run';

/**
 * One queue job per hand-over: the id makes a repeated enqueue of the same hand-over harmless. A
 * queue job that fails (Postgres unreachable) is retried by Bull, then dropped: the relay hands
 * the bulk job over again once its lease ran out.
 */
export function runBulkJobOptions(ref: BulkJobRef): JobOptions {
  return {
    jobId: `bulk-job:${ref.organizationId}:${ref.id}:${ref.attempts}`,
    attempts: 3,
    backoff: { type: 'exponential', delay: 1000 },
    removeOnComplete: true,
    removeOnFail: true,
  };
}

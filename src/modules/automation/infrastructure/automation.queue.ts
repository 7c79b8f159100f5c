import type { JobOptions } from 'bull';

export const AUTOMATION_QUEUE = 'automation';
export const RUN_JOB = 'run';

export type { RunRef as RunJob } from '../../cases/domain/run-queue.js';

/**
 * Job ids make enqueueing idempotent: the relay may add a run twice, Bull keeps one job.
 * `key` tells apart the jobs one run legitimately needs: its start, each resumption after a
 * wait, and a take-over after its worker died (whose old job Bull still holds as active).
 */
export function runJobOptions(runId: number, key = 'start', resumeAt?: Date): JobOptions {
  return {
    jobId: `run:${runId}:${key}`,
    delay: resumeAt ? Math.max(0, resumeAt.getTime() - Date.now()) : 0,
    // A job fails only when the engine could not reach Postgres: Bull retries it, and a job that
    // still fails is dropped, so the relay's later re-enqueue under the same id is not ignored.
    attempts: 5,
    backoff: { type: 'exponential', delay: 1000 },
    removeOnComplete: true,
    removeOnFail: true,
  };
}

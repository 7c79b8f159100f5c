import type { JobOptions } from 'bull';

export const AUTOMATION_QUEUE = 'automation';
export const RUN_JOB = 'run';

export interface RunJob {
  runId: number;
}

/** Job ids make enqueueing idempotent: the relay may add a run twice, Bull keeps one job. */
export function runJobOptions(runId: number, resumeAt?: Date): JobOptions {
  const delay = resumeAt ? Math.max(0, resumeAt.getTime() - Date.now()) : 0;
  return {
    jobId: resumeAt ? `run:${runId}:${resumeAt.getTime()}` : `run:${runId}`,
    delay,
    // A job fails only when the engine itself could not reach Postgres; the run stays due and is retried.
    attempts: 5,
    backoff: { type: 'exponential', delay: 1000 },
    removeOnComplete: true,
    removeOnFail: 1000,
  };
}

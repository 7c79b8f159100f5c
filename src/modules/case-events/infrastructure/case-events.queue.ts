import type { JobOptions } from 'bull';
import type { HandlingRef } from '../domain/listener-handlings.js';
import { MAX_HANDLING_ATTEMPTS } from '../domain/listener-handlings.js';

export const CASE_EVENTS_QUEUE = 'case-events';
export const HANDLE_JOB = 'handle';

/**
 * One job per event and listener, under the handling's id, so a repeated enqueue is harmless.
 * The queue's backoff spaces a throwing listener's attempts; the handling's own count (in
 * Postgres) bounds them, as a job the relay adds again after Redis lost it starts a fresh count.
 */
export function handleJobOptions(ref: HandlingRef): JobOptions {
  return {
    jobId: `case-event:${ref.organizationId}:${ref.id}`,
    attempts: MAX_HANDLING_ATTEMPTS,
    backoff: { type: 'exponential', delay: 1000 },
    removeOnComplete: true,
    removeOnFail: true,
  };
}

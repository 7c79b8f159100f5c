import type { JobOptions } from 'bull';
import type { SignInMailRef } from '../application/sign-in-mail-outbox.js';

export const SIGN_IN_MAILS_QUEUE = 'sign-in-mails';
export const SEND_SIGN_IN_MAIL_JOB = 'send';

/**
 * One job per attempt: the id makes a repeated enqueue of the same attempt harmless. A job that
 * fails (Postgres unreachable) is retried by Bull, then dropped so the relay can enqueue it again.
 */
export function sendSignInMailJobOptions(ref: SignInMailRef): JobOptions {
  return {
    jobId: `sign-in-mail:${ref.organizationId}:${ref.id}:${ref.attempts}`,
    attempts: 3,
    backoff: { type: 'exponential', delay: 1000 },
    removeOnComplete: true,
    removeOnFail: true,
  };
}

import type { Logger } from '../../../shared/logging/logger.js';
import { MAX_SEND_ATTEMPTS } from '../domain/digest.js';
import { MailNotSentError } from './digest.ports.js';

/**
 * A claimed mail not sent this long after its claim is claimed again: its worker died, or the
 * relay refused it. The wait doubles with each attempt (5, 10, 20, 40 minutes), and the fifth
 * failed attempt gives the mail up: a relay refusing it is not asked forever.
 */
export const SEND_LEASE_MS = 5 * 60_000;

/** A mail claimed again after its last attempt never finished (the worker died). */
const STOPPED = 'given up: the worker sending it stopped before it was sent';

/** What one attempt says of a mail (a digest send, a confirmation mail): `attempts` claims so far, this one included. */
export interface MailAttempt {
  attempts: number;
  lastError: string | null;
  /** Logged with a failure: ids only, never a token or URL. */
  about: Record<string, unknown>;
  send(): Promise<void>;
  failed(error: string, final: boolean): Promise<void>;
}

/** Runs one attempt; answers whether it sent. A failure is recorded (the last one gives the mail up), never thrown. */
export async function attemptMail(attempt: MailAttempt, logger: Logger): Promise<boolean> {
  if (attempt.attempts > MAX_SEND_ATTEMPTS) {
    await attempt.failed(attempt.lastError ?? STOPPED, true);
    return false;
  }
  try {
    await attempt.send();
    return true;
  } catch (err) {
    // The relay's answer is safe to store and show; anything else (the database, a sealed token no key opens) only goes to the log.
    const error = err instanceof MailNotSentError ? err.message : 'not sent: internal error (see the worker log)';
    const final = attempt.attempts >= MAX_SEND_ATTEMPTS;
    logger.warn({ ...attempt.about, attempts: attempt.attempts, err: err instanceof MailNotSentError ? error : String(err) }, final ? 'mail not sent; given up' : 'mail not sent; tried again later');
    await attempt.failed(error, final);
    return false;
  }
}

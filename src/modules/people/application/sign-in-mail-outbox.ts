import type { ClaimedSignInMail } from '../domain/sign-in-mail.js';

/** A queued mail as the relay hands it to the queue: `attempts` tells apart the jobs of its attempts. */
export interface SignInMailRef {
  organizationId: number;
  id: number;
  attempts: number;
}

/** The queued sign-in and invitation mails, as their sender sees them; bound to the module's infrastructure. */
export abstract class SignInMailOutbox {
  /** Takes a due mail for one attempt under a lease of `leaseMs` (counting the attempt); undefined when it is not due, held or gone. */
  abstract claim(ref: SignInMailRef, leaseMs: number): Promise<ClaimedSignInMail | undefined>;
  /** Keeps the mail while its attempt is under way. */
  abstract renewLease(mail: ClaimedSignInMail, leaseMs: number): Promise<void>;
  /** Sent or given up: nothing more to do. */
  abstract remove(mail: ClaimedSignInMail): Promise<void>;
  /** Not sent: tried again after `delayMs`. */
  abstract retry(mail: ClaimedSignInMail, delayMs: number): Promise<void>;
}

/** What the sender counts; bound to the metrics registry in the worker. */
export abstract class SignInMailMetrics {
  abstract sent(kind: ClaimedSignInMail['kind']): void;
  abstract givenUp(kind: ClaimedSignInMail['kind']): void;
}

import type { User } from './user.js';

/** What a queued mail carries: an invitation (link valid 7 days) or a link asked for on the sign-in page (15 minutes). */
export type SignInMailKind = 'invitation' | 'sign_in';

/** A queued mail taken by a sender for one attempt, with the user it goes to. */
export interface ClaimedSignInMail {
  organizationId: number;
  id: number;
  kind: SignInMailKind;
  /** This attempt's number: an attempt counts from its claim, so one whose worker died counts too. */
  attempt: number;
  user: User;
  /** Whether the mail was asked for so long ago that a failure of this attempt gives it up. */
  lastChance: boolean;
}

/**
 * A mail the relay refuses is tried again for about an hour (a relay briefly down, a restart),
 * then given up: by then a sign-in link is long past its use, and a person can ask again.
 */
export const GIVE_UP_AFTER_MS = 60 * 60_000;
const FIRST_RETRY_MS = 1_000;
const LONGEST_WAIT_MS = 5 * 60_000;

/** The wait after the `attempts`-th failed attempt: doubling from a second, at most five minutes. */
export function retryDelayMs(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** (attempts - 1), LONGEST_WAIT_MS);
}

/**
 * A mail the relay refuses is tried again, doubling from a second up to five minutes, for about
 * an hour (a relay briefly down, a restart); then a reply is marked `failed` on its comment and
 * a notification dropped.
 */
export const GIVE_UP_AFTER_MS = 60 * 60_000;
const FIRST_RETRY_MS = 1_000;
const LONGEST_WAIT_MS = 5 * 60_000;

export function retryDelayMs(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** (attempts - 1), LONGEST_WAIT_MS);
}

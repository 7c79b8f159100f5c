/**
 * A session or sign-in link is kept this long after it ended (a session expired or idle past
 * SESSION_IDLE_TIMEOUT_MS, a link used or expired): a person opening an old link in that time
 * is told it was used or expired, and the try is audited against its user, where a purged link
 * is only unknown; after a week nobody follows such a link by mistake any more. An ended session
 * serves nothing, but keeping it as long gives both tables one rule at the cost of a week of small rows.
 */
export const ENDED_SIGN_INS_KEPT_MS = 7 * 24 * 3_600_000;

/**
 * Retention's purge of ended sessions and spent sign-in links (retention.ports.ts RetentionPurges
 * calls it). Declared here, not in retention, since retention's module reaches this one through
 * the organizations module. Each call deletes at most `limit` rows ended longer than
 * ENDED_SIGN_INS_KEPT_MS ago, skipping rows another pass holds, and answers how many it deleted.
 */
export abstract class PeoplePurges {
  abstract purgeEndedSessions(limit: number): Promise<number>;
  abstract purgeSpentSignInLinks(limit: number): Promise<number>;
}

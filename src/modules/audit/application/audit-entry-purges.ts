/**
 * Retention's purge of the audit log (retention.ports.ts RetentionPurges calls it): the only way
 * an entry is ever deleted. Declared here, not in retention, since retention records its own
 * changes in the audit log.
 */
export abstract class AuditEntryPurges {
  /**
   * Deletes at most `limit` entries of these organizations older than their days (same order),
   * skipping rows another pass holds; how many it deleted.
   */
  abstract purgeOlderThan(organizations: { ids: number[]; days: number[] }, limit: number): Promise<number>;
  /** The month partitions from the month of `now` ahead; how many it created. */
  abstract createPartitionsAhead(now: Date): Promise<number>;
  /** Drops the month partitions whose every entry is older than its organization's days; how many entries went. */
  abstract dropPartitions(organizations: { ids: number[]; days: number[] }): Promise<number>;
}

import type { Transaction } from '../../../shared/database/transaction.js';
import type { RetentionOverrides } from '../domain/retention.js';

/** Where organizations' retention overrides are kept. */
export abstract class RetentionOverridesStore {
  /** The organization's overrides; all null when it never set any. */
  abstract find(organizationId: number, tx?: Transaction): Promise<RetentionOverrides>;
  /** Replaces all of them at once. */
  abstract replace(tx: Transaction, organizationId: number, overrides: RetentionOverrides): Promise<void>;
  /** Every organization's overrides that set any, by organization. */
  abstract all(): Promise<Map<number, RetentionOverrides>>;
}

export const PURGED_KINDS = ['cases', 'case_events', 'runs', 'deliveries', 'delivery_attempts', 'outbox_events', 'case_event_handlings', 'case_links', 'case_search_documents', 'idempotency_keys', 'webhook_dedup_keys', 'digest_sends', 'audit_entries', 'sessions', 'sign_in_links', 'case_comments', 'case_watchers', 'notification_batches', 'sla_timers'] as const;

/** Keys that expire after a while: Idempotency-Key claims (24 hours), webhook delivery keys (their window, at most 7 days). */
export const EXPIRING_KINDS = ['idempotency_keys', 'webhook_dedup_keys'] as const satisfies readonly PurgedKind[];
export type ExpiringKind = (typeof EXPIRING_KINDS)[number];
export type PurgedKind = (typeof PURGED_KINDS)[number];
export type PurgedCounts = Partial<Record<PurgedKind, number>>;

/**
 * Whose rows a pass purges (an organization, or a subscription for deliveries), after how many
 * days, and where its first purgeable row is (a creation time, or a delivery id to start after).
 */
export interface PurgeOwner<P> {
  id: number;
  days: number;
  start: P;
}

/** One batch: what it deleted, and where the next batch of the same owner starts (null: the owner is done). */
export interface PurgeBatch<P> {
  purged: PurgedCounts;
  next: P | null;
}

/**
 * The purge's statements, as PurgePass calls them. Each batch is its own short transaction that
 * deletes at most `limit` rows of its main kind (plus what they hold), skipping rows another
 * pass holds; the counts of purged cases and runs are added to the usage rollups in the same
 * transaction. Retention owns none of these tables: each call goes to the owner's port below.
 */
export abstract class RetentionPurges {
  /**
   * Creates the month partitions of the current month and the next MONTHS_AHEAD
   * (shared/database/time-partitions.ts) that are missing, each owner its own tables; how many it created.
   */
  abstract createPartitionsAhead(): Promise<number>;
  /** Drops the month partitions of runs whose every run is past its organization's retention; how many runs went. */
  abstract dropRunPartitions(defaultDays: number): Promise<number>;
  /** Drops the month partitions of audit entries whose every entry is past its organization's audit retention; how many went. */
  abstract dropAuditPartitions(defaultDays: number): Promise<number>;
  /** Drops the past month partitions of the timeline and of deliveries that the batches emptied. */
  abstract dropEmptiedPartitions(): Promise<void>;
  /** Organizations with runs that finished longer ago than their retention (`defaultDays` unless overridden). */
  abstract organizationsWithOldRuns(defaultDays: number): Promise<PurgeOwner<Date>[]>;
  abstract purgeRuns(organization: PurgeOwner<Date>, from: Date, limit: number): Promise<PurgeBatch<Date>>;
  /** Organizations keeping closed cases for a limited time, with cases Closed for longer. */
  abstract organizationsWithOldClosedCases(defaultDays: number): Promise<PurgeOwner<Date>[]>;
  /** Closed cases with no unfinished run or delivery, with their timeline, runs, events, deliveries and keys (both kinds). */
  abstract purgeClosedCases(organization: PurgeOwner<Date>, from: Date, limit: number): Promise<PurgeBatch<Date>>;
  /** Subscriptions whose oldest delivery is older than their organization's retention. */
  abstract subscriptionsWithOldDeliveries(defaultDays: number): Promise<PurgeOwner<number>[]>;
  /**
   * Looks at the subscription's `limit` oldest deliveries after id `afterId` and deletes the
   * events all of whose deliveries ended long enough ago, with those deliveries and their attempts.
   */
  abstract purgeDeliveries(subscription: PurgeOwner<number>, afterId: number, limit: number): Promise<PurgeBatch<number>>;
  /** Keys of `kind` past their lifetime, walked by the case they point at, after `afterCaseId`. */
  abstract purgeExpiredKeys(kind: ExpiringKind, afterCaseId: number, limit: number): Promise<PurgeBatch<number>>;
  /**
   * Digest sends done with (sent, skipped or given up) whose period ended longer ago than the
   * digest scheduler looks back, oldest first; `next` is 0 while a full batch was deleted.
   */
  abstract purgeDigestSends(limit: number): Promise<PurgeBatch<number>>;
  /** Audit entries older than their organization's audit retention (`defaultDays` unless overridden); `next` is 0 while a full batch was deleted. */
  abstract purgeAuditEntries(defaultDays: number, limit: number): Promise<PurgeBatch<number>>;
  /** Sessions that ended (expired, or idle too long) a week ago or more; `next` is 0 while a full batch was deleted. */
  abstract purgeEndedSessions(limit: number): Promise<PurgeBatch<number>>;
  /** Sign-in links (invitations included) used or expired a week ago or more; `next` is 0 while a full batch was deleted. */
  abstract purgeSpentSignInLinks(limit: number): Promise<PurgeBatch<number>>;
  /** SLA timers fired long enough ago (SlaTimerPurges); `next` is 0 while a full batch was deleted. */
  abstract purgeFiredSlaTimers(limit: number): Promise<PurgeBatch<number>>;
}

/** The organizations with something to purge for one retention setting, and their days (the override, or the default), in the same order. */
export interface OrganizationDays {
  ids: number[];
  days: number[];
}

/** The purge port of the module that owns cases, their runs and the keys that point at them (see RetentionPurges). */
export abstract class CasePurges {
  /** The runs' and the timeline's month partitions from the month of `now` ahead; how many it created. */
  abstract createPartitionsAhead(now: Date): Promise<number>;
  abstract dropRunPartitions(organizations: OrganizationDays): Promise<number>;
  abstract dropEmptiedTimelinePartitions(): Promise<void>;
  abstract organizationsWithOldRuns(organizations: OrganizationDays): Promise<PurgeOwner<Date>[]>;
  abstract purgeRuns(organization: PurgeOwner<Date>, from: Date, limit: number): Promise<PurgeBatch<Date>>;
  abstract organizationsWithOldClosedCases(organizations: OrganizationDays): Promise<PurgeOwner<Date>[]>;
  abstract purgeClosedCases(organization: PurgeOwner<Date>, from: Date, limit: number): Promise<PurgeBatch<Date>>;
  abstract purgeExpiredKeys(kind: ExpiringKind, afterCaseId: number, limit: number): Promise<PurgeBatch<number>>;
}

/** The purge port of the module that owns subscriptions and their deliveries (see RetentionPurges). */
export abstract class DeliveryPurges {
  /** The deliveries' month partitions from the month of `now` ahead; how many it created. */
  abstract createPartitionsAhead(now: Date): Promise<number>;
  abstract dropEmptiedPartitions(): Promise<void>;
  abstract subscriptionsWithOldDeliveries(organizations: OrganizationDays): Promise<PurgeOwner<number>[]>;
  abstract purgeDeliveries(subscription: PurgeOwner<number>, afterId: number, limit: number): Promise<PurgeBatch<number>>;
}

/** The purge port of the module that owns digests (see RetentionPurges). */
export abstract class DigestSendPurges {
  abstract purgeDigestSends(limit: number): Promise<PurgeBatch<number>>;
}

/**
 * The purge port of the module that owns SLA timers (see RetentionPurges): deletes at most
 * `limit` timers fired long enough ago that the sweep never wants them again, skipping rows
 * another pass or a sweep holds, and answers how many it deleted.
 */
export abstract class SlaTimerPurges {
  abstract purgeFiredTimers(limit: number): Promise<number>;
}

/** Counts purged rows by kind as batches commit. */
export abstract class PurgeMetrics {
  abstract purged(counts: PurgedCounts): void;
}

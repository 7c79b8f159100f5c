import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { TransactionRunner } from '../../../shared/database/transaction.js';
import { withoutStatementTimeout } from '../../../shared/database/without-statement-timeout.js';
import { type ExpiringKind, type PurgeBatch, type PurgedCounts, type PurgeOwner, RetentionPurges } from '../application/retention.ports.js';
import {
  DELETE_CASES_SQL,
  DELETE_OUTBOX_EVENTS_SQL,
  DELIVERY_WINDOW_SQL,
  LOCK_CASE_EVENTS_SQL,
  LOCK_CLOSED_CASES_SQL,
  LOCK_ENDED_EVENTS_SQL,
  ORGANIZATIONS_WITH_OLD_CLOSED_CASES_SQL,
  ORGANIZATIONS_WITH_OLD_RUNS_SQL,
  type ExpiringKeys,
  IDEMPOTENCY_KEYS,
  PURGE_DIGEST_SENDS_SQL,
  PURGE_RUNS_SQL,
  purgeExpiredKeysSql,
  SUBSCRIPTIONS_WITH_OLD_DELIVERIES_SQL,
  WEBHOOK_DEDUP_KEYS,
} from './purge.sql.js';

const EXPIRING_KEYS: Record<ExpiringKind, ExpiringKeys> = { idempotency_keys: IDEMPOTENCY_KEYS, webhook_dedup_keys: WEBHOOK_DEDUP_KEYS };
const PURGE_EXPIRED_KEYS_SQL = Object.fromEntries(Object.entries(EXPIRING_KEYS).map(([kind, keys]) => [kind, purgeExpiredKeysSql(keys)])) as Record<ExpiringKind, string>;

/**
 * The purge in Postgres (see purge.sql.ts). Statements are sent unnamed, planned with their
 * actual values each time: a pass runs a few of them a minute, and a generic plan made while a
 * table was small would walk it the wrong way once it is big. None is cut off by the pool's
 * statement_timeout (withoutStatementTimeout).
 */
@Injectable()
export class PostgresRetentionPurges extends RetentionPurges {
  constructor(private readonly transactions: TransactionRunner) {
    super();
  }

  organizationsWithOldRuns(defaultDays: number): Promise<PurgeOwner<Date>[]> {
    return this.owners<Date>(ORGANIZATIONS_WITH_OLD_RUNS_SQL, defaultDays);
  }

  /** The next batch starts at the creation time of the last run taken (a run skipped there is looked at again). */
  async purgeRuns(organization: PurgeOwner<Date>, from: Date, limit: number): Promise<PurgeBatch<Date>> {
    const [row] = (await this.query(PURGE_RUNS_SQL, [organization.id, organization.days, from, limit])) as
      { runs: number; taken: number; last: Date | null }[];
    return { purged: { runs: row!.runs }, next: row!.taken === limit ? row!.last : null };
  }

  organizationsWithOldClosedCases(defaultDays: number): Promise<PurgeOwner<Date>[]> {
    return this.owners<Date>(ORGANIZATIONS_WITH_OLD_CLOSED_CASES_SQL, defaultDays);
  }

  purgeClosedCases(organization: PurgeOwner<Date>, from: Date, limit: number): Promise<PurgeBatch<Date>> {
    return withoutStatementTimeout(this.transactions, async (m) => {
      const locked = (await m.query(LOCK_CLOSED_CASES_SQL, [organization.id, organization.days, from, limit])) as { id: string; created_at: Date }[];
      if (!locked.length) return { purged: {}, next: null };
      const cases = ids(locked);
      const events = ids(await m.query(LOCK_CASE_EVENTS_SQL, [cases]));
      const outbox = events.length ? await deleteOutboxEvents(m, events) : {};
      const [purged] = (await m.query(DELETE_CASES_SQL, [cases])) as PurgedCounts[];
      return { purged: { ...outbox, ...purged }, next: locked.length === limit ? locked.at(-1)!.created_at : null };
    });
  }

  subscriptionsWithOldDeliveries(defaultDays: number): Promise<PurgeOwner<number>[]> {
    return this.owners<number>(SUBSCRIPTIONS_WITH_OLD_DELIVERIES_SQL, defaultDays);
  }

  /**
   * Deliveries are created in id order, so the window stops at the first one created after the
   * cutoff. Deliveries still being tried, or ended recently, stay behind as the window moves on;
   * an event goes once all its deliveries ended long enough ago.
   */
  purgeDeliveries(subscription: PurgeOwner<number>, afterId: number, limit: number): Promise<PurgeBatch<number>> {
    return withoutStatementTimeout(this.transactions, async (m) => {
      const window = (await m.query(DELIVERY_WINDOW_SQL, [subscription.id, subscription.days, afterId, limit])) as
        { id: string; event_id: string; old: boolean; ended_long_ago: boolean }[];
      const reachedRecent = window.length < limit || window.some((delivery) => !delivery.old);
      const candidates = [...new Set(window.filter((delivery) => delivery.ended_long_ago).map((delivery) => Number(delivery.event_id)))];
      const events = candidates.length ? ids(await m.query(LOCK_ENDED_EVENTS_SQL, [candidates, subscription.days])) : [];
      const purged = events.length ? await deleteOutboxEvents(m, events) : {};
      return { purged, next: reachedRecent ? null : Number(window.at(-1)!.id) };
    });
  }

  async purgeExpiredKeys(kind: ExpiringKind, afterCaseId: number, limit: number): Promise<PurgeBatch<number>> {
    const [row] = (await this.query(PURGE_EXPIRED_KEYS_SQL[kind], [afterCaseId, limit])) as
      { purged: number; seen: number; last: string | null; all_expired: boolean | null }[];
    const more = row!.seen === limit && row!.all_expired === true;
    return { purged: { [kind]: row!.purged }, next: more ? Number(row!.last) : null };
  }

  async purgeDigestSends(limit: number): Promise<PurgeBatch<number>> {
    const [row] = (await this.query(PURGE_DIGEST_SENDS_SQL, [limit])) as { purged: number }[];
    return { purged: { digest_sends: row!.purged }, next: row!.purged === limit ? 0 : null };
  }

  /** One statement, unbounded like the transactions above. */
  private query(sql: string, parameters: unknown[]): Promise<unknown> {
    return withoutStatementTimeout(this.transactions, (m) => m.query(sql, parameters));
  }

  private async owners<P>(sql: string, defaultDays: number): Promise<PurgeOwner<P>[]> {
    const rows = (await this.query(sql, [defaultDays])) as { id: string; days: number; start: P }[];
    return rows.map((row) => ({ id: Number(row.id), days: Number(row.days), start: row.start }));
  }
}

async function deleteOutboxEvents(m: EntityManager, events: number[]): Promise<PurgedCounts> {
  const [purged] = (await m.query(DELETE_OUTBOX_EVENTS_SQL, [events])) as PurgedCounts[];
  return purged!;
}

const ids = (rows: { id: string }[]) => rows.map((row) => Number(row.id));

import { Injectable } from '@nestjs/common';
import { purgeOwners, purgeStatement, queryIn } from '../../../shared/database/purge-sql.js';
import { TransactionRunner } from '../../../shared/database/transaction.js';
import { createMonthsAhead, dropPartitions, dropPartitionsPastRetention, guardAgainstPartitionDrops, startOfMonth } from '../../../shared/database/time-partitions.js';
import { firstRowOf, rowsOf } from './persistence.js';
import { withoutStatementTimeout } from '../../../shared/database/without-statement-timeout.js';
import { CasePurges, type ExpiringKind, type OrganizationDays, type PurgeBatch, type PurgedCounts, type PurgeOwner } from '../../retention/application/retention.ports.js';
import { type CaseStatementPart, CaseStatementParts } from '../domain/case-statement-parts.js';
import { DELETE_CASES, EMPTY_TIMELINE_PARTITION, lockClosedCases, ORGANIZATIONS_WITH_OLD_CLOSED_CASES, PURGE_EXPIRED_KEYS } from './case-purges.sql.js';
import { ORGANIZATIONS_WITH_OLD_RUNS, PURGE_RUNS, ROLL_UP_RUN_PARTITION, RUN_PARTITION_CHECK } from './run-purges.sql.js';

/** Finished runs, closed cases and expired keys, as the retention purge asks; what other modules hold of a case goes with it through their parts. */
@Injectable()
export class PostgresCasePurges extends CasePurges {
  private composed?: { parts: CaseStatementPart[]; lock: ReturnType<typeof lockClosedCases> };

  constructor(private readonly transactions: TransactionRunner, private readonly parts: CaseStatementParts) {
    super();
  }

  /** Built at the first purge, once every module registered its part. */
  private get statements() {
    if (!this.composed) {
      const parts = this.parts.all();
      this.composed = { parts, lock: lockClosedCases(parts) };
    }
    return this.composed;
  }

  async createPartitionsAhead(now: Date): Promise<number> {
    const runs = await createMonthsAhead(this.transactions, 'workflow_runs', 'created_at', now);
    return runs + (await createMonthsAhead(this.transactions, 'case_events', 'created_at', now));
  }

  organizationsWithOldRuns(organizations: OrganizationDays): Promise<PurgeOwner<Date>[]> {
    return purgeOwners(this.transactions, ORGANIZATIONS_WITH_OLD_RUNS, organizations);
  }

  /** The month partitions of runs past every organization's days, each dropped whole with its runs rolled up; how many runs went. */
  dropRunPartitions(organizations: OrganizationDays): Promise<number> {
    return dropPartitionsPastRetention(this.transactions, { table: 'workflow_runs', check: RUN_PARTITION_CHECK, rollUp: ROLL_UP_RUN_PARTITION }, organizations);
  }

  async dropEmptiedTimelinePartitions(): Promise<void> {
    await dropPartitions(this.transactions, { table: 'case_events', check: EMPTY_TIMELINE_PARTITION, parameters: [], before: startOfMonth() });
  }

  /** The next batch starts at the creation time of the last run taken (a run skipped there is looked at again). */
  async purgeRuns(organization: PurgeOwner<Date>, from: Date, limit: number): Promise<PurgeBatch<Date>> {
    const [row] = await withoutStatementTimeout(this.transactions, async (m) => {
      await guardAgainstPartitionDrops(m);
      return rowsOf(m, PURGE_RUNS, [organization.id, organization.days, from, limit]);
    });
    return { purged: { runs: row!.runs }, next: row!.taken === limit ? row!.last : null };
  }

  organizationsWithOldClosedCases(organizations: OrganizationDays): Promise<PurgeOwner<Date>[]> {
    return purgeOwners(this.transactions, ORGANIZATIONS_WITH_OLD_CLOSED_CASES, organizations);
  }

  purgeClosedCases(organization: PurgeOwner<Date>, from: Date, limit: number): Promise<PurgeBatch<Date>> {
    const { parts, lock } = this.statements;
    return withoutStatementTimeout(this.transactions, async (m) => {
      await guardAgainstPartitionDrops(m);
      const locked = await rowsOf(m, lock, [organization.id, organization.days, from, limit]);
      if (!locked.length) return { purged: {}, next: null };
      const cases = locked.map((row) => Number(row.id));
      let purged: PurgedCounts = {};
      for (const part of parts) if (part.purgeBefore) purged = { ...purged, ...(await part.purgeBefore(queryIn(m), cases, organization.id)) };
      const withCases = await firstRowOf(m, DELETE_CASES, [cases, organization.id]);
      return { purged: { ...purged, ...withCases }, next: locked.length === limit ? locked.at(-1)!.created_at : null };
    });
  }

  async purgeExpiredKeys(kind: ExpiringKind, afterCaseId: number, limit: number): Promise<PurgeBatch<number>> {
    const [row] = await purgeStatement(this.transactions, PURGE_EXPIRED_KEYS[kind], [afterCaseId, limit]);
    const more = row!.seen === limit && row!.all_expired === true;
    return { purged: { [kind]: row!.purged }, next: more ? Number(row!.last) : null };
  }
}

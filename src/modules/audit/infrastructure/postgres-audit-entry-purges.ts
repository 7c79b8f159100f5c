import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { createMonthsAhead, dropPartitionsPastRetention, PARTITION_CHECK } from '../../../shared/database/time-partitions.js';
import { TransactionRunner } from '../../../shared/database/transaction.js';
import { column } from '../../../shared/database/typed-statement.js';
import { firstRowOf, statement } from './persistence.js';
import { AuditEntryPurges } from '../application/audit-entry-purges.js';

/** One statement per batch, each organization's oldest entries found by the primary key (organization_id, at, id); a SELECT, so its rows are the count. */
const PURGE = statement(
  `WITH doomed AS (
    SELECT e.organization_id, e.at, e.id
    FROM unnest($1::bigint[], $2::int[]) AS o(organization_id, days)
    CROSS JOIN LATERAL (
      SELECT a.organization_id, a.at, a.id FROM audit_entries a
      WHERE a.organization_id = o.organization_id AND a.at < now() - o.days * interval '1 day'
      ORDER BY a.at LIMIT $3 FOR UPDATE SKIP LOCKED
    ) e
    LIMIT $3
  ), deleted AS (
    DELETE FROM audit_entries a USING doomed WHERE a.organization_id = doomed.organization_id AND a.at = doomed.at AND a.id = doomed.id
    RETURNING a.id
  )
  SELECT count(*)::int AS n FROM deleted`,
  { n: column.int4 },
);

/**
 * $1, $2 a partition's bounds, $3, $4 the organizations and their days: droppable when every
 * entry of the partition is older than its organization's days (one missing from $3 keeps its
 * entries); how many entries it holds.
 */
const DROPPABLE_PARTITION = statement(
  `SELECT count(*) FILTER (WHERE o.days IS NULL OR a.at >= now() - o.days * interval '1 day') = 0 AS droppable, count(*)::int AS rows
  FROM audit_entries a LEFT JOIN unnest($3::bigint[], $4::int[]) AS o(organization_id, days) USING (organization_id)
  WHERE a.at >= $1 AND a.at < $2`,
  PARTITION_CHECK,
);

@Injectable()
export class PostgresAuditEntryPurges extends AuditEntryPurges {
  constructor(@InjectDataSource() private readonly dataSource: DataSource, private readonly transactions: TransactionRunner) {
    super();
  }

  createPartitionsAhead(now: Date): Promise<number> {
    return createMonthsAhead(this.transactions, 'audit_entries', 'at', now);
  }

  dropPartitions(organizations: { ids: number[]; days: number[] }): Promise<number> {
    return dropPartitionsPastRetention(this.transactions, { table: 'audit_entries', check: DROPPABLE_PARTITION }, organizations);
  }

  async purgeOlderThan(organizations: { ids: number[]; days: number[] }, limit: number): Promise<number> {
    if (organizations.ids.length === 0) return 0;
    const row = await firstRowOf(this.dataSource, PURGE, [organizations.ids, organizations.days, limit]);
    return row!.n;
  }
}

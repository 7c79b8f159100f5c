import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { queryIn } from '../../../shared/database/purge-sql.js';
import { dropPartitions } from '../../../shared/database/time-partitions.js';
import { TransactionRunner } from '../../../shared/database/transaction.js';
import { withoutStatementTimeout } from '../../../shared/database/without-statement-timeout.js';
import { AuditEntryPurges } from '../application/audit-entry-purges.js';

/** One statement per batch, each organization's oldest entries found by the primary key (organization_id, at, id); a SELECT, so its rows are the count. */
const PURGE_SQL = `
  WITH doomed AS (
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
  SELECT count(*)::int AS n FROM deleted`;

/** $1, $2 the organizations and their days: true when every entry of the partition is older than its organization's days (one missing from $1 keeps its entries). */
const droppablePartition = (partition: string) => `NOT EXISTS (
    SELECT 1 FROM ${partition} a LEFT JOIN unnest($1::bigint[], $2::int[]) AS o(organization_id, days) USING (organization_id)
    WHERE o.days IS NULL OR a.at >= now() - o.days * interval '1 day')`;

@Injectable()
export class PostgresAuditEntryPurges extends AuditEntryPurges {
  constructor(@InjectDataSource() private readonly dataSource: DataSource, private readonly transactions: TransactionRunner) {
    super();
  }

  async dropPartitions(organizations: { ids: number[]; days: number[] }): Promise<number> {
    if (!organizations.ids.length) return 0;
    const before = new Date(Date.now() - Math.max(...organizations.days) * 86_400_000);
    const dropped = await dropPartitions((work) => withoutStatementTimeout(this.transactions, (m) => work(queryIn(m))), {
      table: 'audit_entries',
      droppable: droppablePartition,
      parameters: [organizations.ids, organizations.days],
      before,
    });
    return [...dropped.values()].reduce((sum, n) => sum + n, 0);
  }

  async purgeOlderThan(organizations: { ids: number[]; days: number[] }, limit: number): Promise<number> {
    if (organizations.ids.length === 0) return 0;
    const [row] = (await this.dataSource.query(PURGE_SQL, [organizations.ids, organizations.days, limit])) as { n: number }[];
    return row!.n;
  }
}

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { column, firstRowOf, statement } from '../../../shared/database/typed-statement.js';
import { AuditEntryPurges } from '../application/audit-entry-purges.js';

/** One statement per batch, each organization's oldest entries found by `audit_entries_at`; a SELECT, so its rows are the count. */
const PURGE = statement(
  `WITH doomed AS (
    SELECT e.organization_id, e.id
    FROM unnest($1::bigint[], $2::int[]) AS o(organization_id, days)
    CROSS JOIN LATERAL (
      SELECT a.organization_id, a.id FROM audit_entries a
      WHERE a.organization_id = o.organization_id AND a.at < now() - o.days * interval '1 day'
      ORDER BY a.at LIMIT $3 FOR UPDATE SKIP LOCKED
    ) e
    LIMIT $3
  ), deleted AS (
    DELETE FROM audit_entries a USING doomed WHERE a.organization_id = doomed.organization_id AND a.id = doomed.id
    RETURNING a.id
  )
  SELECT count(*)::int AS n FROM deleted`,
  { n: column.int4 },
);

@Injectable()
export class PostgresAuditEntryPurges extends AuditEntryPurges {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    super();
  }

  async purgeOlderThan(organizations: { ids: number[]; days: number[] }, limit: number): Promise<number> {
    if (organizations.ids.length === 0) return 0;
    const row = await firstRowOf(this.dataSource, PURGE, [organizations.ids, organizations.days, limit]);
    return row!.n;
  }
}

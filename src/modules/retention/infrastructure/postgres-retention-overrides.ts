import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { Transaction } from '../../../shared/database/transaction.js';
import { column, type RowOf } from '../../../shared/database/typed-statement.js';
import { firstRowOf, rowsOf, statement } from './persistence.js';
import { entityManager } from '../../../shared/database/typeorm-transaction-runner.js';
import { NO_OVERRIDES, type RetentionOverrides } from '../domain/retention.js';
import { RetentionOverridesStore } from '../application/retention.ports.js';

const OVERRIDES_ROW = {
  runs_days: column.nullable(column.int4),
  deliveries_days: column.nullable(column.int4),
  closed_cases_days: column.nullable(column.int4),
  audit_days: column.nullable(column.int4),
};

const FIND_OVERRIDES = statement(`SELECT runs_days, deliveries_days, closed_cases_days, audit_days FROM organization_retention WHERE organization_id = $1`, OVERRIDES_ROW);
const ALL_OVERRIDES = statement(`SELECT organization_id, runs_days, deliveries_days, closed_cases_days, audit_days FROM organization_retention`, {
  ...OVERRIDES_ROW,
  organization_id: column.int8,
});
const REPLACE_OVERRIDES = statement(
  `INSERT INTO organization_retention (organization_id, runs_days, deliveries_days, closed_cases_days, audit_days) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (organization_id) DO UPDATE SET runs_days = EXCLUDED.runs_days, deliveries_days = EXCLUDED.deliveries_days,
         closed_cases_days = EXCLUDED.closed_cases_days, audit_days = EXCLUDED.audit_days, updated_at = now()`,
);

/** `organization_retention`: one row per organization that ever set an override. */
@Injectable()
export class PostgresRetentionOverrides extends RetentionOverridesStore {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    super();
  }

  async find(organizationId: number, tx?: Transaction): Promise<RetentionOverrides> {
    const row = await firstRowOf(tx ? entityManager(tx) : this.dataSource, FIND_OVERRIDES, [organizationId]);
    return row ? toOverrides(row) : { ...NO_OVERRIDES };
  }

  async all(): Promise<Map<number, RetentionOverrides>> {
    const rows = await rowsOf(this.dataSource, ALL_OVERRIDES);
    return new Map(rows.map((row) => [Number(row.organization_id), toOverrides(row)]));
  }

  async replace(tx: Transaction, organizationId: number, overrides: RetentionOverrides): Promise<void> {
    await rowsOf(entityManager(tx), REPLACE_OVERRIDES, [organizationId, overrides.runsDays, overrides.deliveriesDays, overrides.closedCasesDays, overrides.auditDays]);
  }
}

function toOverrides(row: RowOf<typeof OVERRIDES_ROW>): RetentionOverrides {
  return { runsDays: row.runs_days, deliveriesDays: row.deliveries_days, closedCasesDays: row.closed_cases_days, auditDays: row.audit_days };
}

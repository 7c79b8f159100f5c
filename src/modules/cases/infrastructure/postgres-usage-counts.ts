import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { column } from '../../../shared/database/typed-statement.js';
import { rowsOf, statement } from './persistence.js';
import { type UsageCount, UsageCounts } from '../application/usage.ports.js';
import type { CaseMode } from '../domain/case.js';

const USAGE_COUNTS = statement(
  `SELECT workflow_id, mode, sum(cases)::int AS cases, sum(runs)::int AS runs FROM (
         SELECT workflow_id, mode, count(*) AS cases, 0 AS runs FROM cases
         WHERE organization_id = $1 AND created_at >= $2 AND created_at < $3 GROUP BY workflow_id, mode
         UNION ALL
         SELECT workflow_id, mode, 0, count(*) FROM workflow_runs
         WHERE organization_id = $1 AND created_at >= $2 AND created_at < $3 GROUP BY workflow_id, mode
         UNION ALL
         SELECT workflow_id, mode, sum(cases), sum(runs) FROM usage_rollups
         WHERE organization_id = $1 AND hour >= $2 AND hour < $3 GROUP BY workflow_id, mode
       ) counts GROUP BY workflow_id, mode ORDER BY workflow_id`,
  { workflow_id: column.int8, mode: column.textOf<CaseMode>(), cases: column.int4, runs: column.int4 },
);

@Injectable()
export class PostgresUsageCounts extends UsageCounts {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    super();
  }

  async counts(organizationId: number, from: Date, to: Date): Promise<UsageCount[]> {
    const rows = await rowsOf(this.dataSource, USAGE_COUNTS, [organizationId, from, to]);
    return rows.map((row) => ({ workflowId: Number(row.workflow_id), mode: row.mode, cases: row.cases, runs: row.runs }));
  }
}

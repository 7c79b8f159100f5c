import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { InvalidRequestError } from '../../../shared/errors/app-error.js';

interface Counts {
  cases: number;
  runs: number;
}

export interface UsageReport {
  from: string;
  to: string;
  /** Billed: live cases created and live runs started. */
  live: Counts;
  /** Reported apart, never billed. */
  test: Counts;
  workflows: { workflow_id: number; live: Counts; test: Counts }[];
}

/**
 * Cases created and runs started in a period, per workflow and in total, live and test apart.
 * Rows the retention purge deleted count through their usage rollups: an hour's rolled-up
 * counts fall in the period when the hour starts in it, so the counts of a period on whole
 * hours are exact whatever was purged.
 */
@Injectable()
export class UsageService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async report(organizationId: number, from: Date, to: Date): Promise<UsageReport> {
    if (!(from < to)) throw new InvalidRequestError('"from" must be before "to"');
    const rows = (await this.dataSource.query(
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
      [organizationId, from, to],
    )) as { workflow_id: string; mode: 'live' | 'test'; cases: number; runs: number }[];
    const zero = (): Counts => ({ cases: 0, runs: 0 });
    const report: UsageReport = { from: from.toISOString(), to: to.toISOString(), live: zero(), test: zero(), workflows: [] };
    const byWorkflow = new Map<number, UsageReport['workflows'][number]>();
    for (const row of rows) {
      const id = Number(row.workflow_id);
      if (!byWorkflow.has(id)) byWorkflow.set(id, { workflow_id: id, live: zero(), test: zero() });
      for (const counts of [byWorkflow.get(id)![row.mode], report[row.mode]]) {
        counts.cases += row.cases;
        counts.runs += row.runs;
      }
    }
    report.workflows = [...byWorkflow.values()];
    return report;
  }
}

import { Injectable } from '@nestjs/common';
import { InvalidRequestError } from '../../../shared/errors/app-error.js';
import { UsageCounts } from './usage.ports.js';

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
  constructor(private readonly usage: UsageCounts) {}

  async report(organizationId: number, from: Date, to: Date): Promise<UsageReport> {
    if (!(from < to)) throw new InvalidRequestError('"from" must be before "to"');
    const zero = (): Counts => ({ cases: 0, runs: 0 });
    const report: UsageReport = { from: from.toISOString(), to: to.toISOString(), live: zero(), test: zero(), workflows: [] };
    const byWorkflow = new Map<number, UsageReport['workflows'][number]>();
    for (const row of await this.usage.counts(organizationId, from, to)) {
      if (!byWorkflow.has(row.workflowId)) byWorkflow.set(row.workflowId, { workflow_id: row.workflowId, live: zero(), test: zero() });
      for (const counts of [byWorkflow.get(row.workflowId)![row.mode], report[row.mode]]) {
        counts.cases += row.cases;
        counts.runs += row.runs;
      }
    }
    report.workflows = [...byWorkflow.values()];
    return report;
  }
}

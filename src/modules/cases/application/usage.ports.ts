import type { CaseMode } from '../domain/case.js';

/** Cases created and runs started in a period, of one workflow in one mode. */
export interface UsageCount {
  workflowId: number;
  mode: CaseMode;
  cases: number;
  runs: number;
}

/** What usage reads: stored cases and runs, and the hourly rollups of those the retention purge deleted. */
export abstract class UsageCounts {
  /** Cases and runs created in `[from, to)`, plus the rolled-up ones of the UTC hours starting in it, by workflow (in id order) and mode. */
  abstract counts(organizationId: number, from: Date, to: Date): Promise<UsageCount[]>;
}

import type { CaseSource } from '../../cases/domain/case.js';
import type { ReportRange } from '../domain/report-range.js';

/** The figures of one interval (`slot`: the interval's index in the range). */
export interface SlotFigures {
  slot: number;
  createdBySource: Record<CaseSource, number>;
  /** Created from extensions' case sources (docs/extending.md), whichever. */
  createdByExtensions: number;
  closed: number;
  errored: number;
  reopened: number;
}

export interface ReportFigures {
  /** At most one per interval; an interval with nothing is left out. */
  slots: SlotFigures[];
  /** Cases closed in the range by time-to-close bucket (see close-time-bucket.ts). */
  closeTimes: Map<number, number>;
  /** Live cases not Closed, by status, now. */
  openByStatus: [status: string, cases: number][];
  /** The most frequent run failure messages in the range, most frequent first. */
  topErrors: { message: string; count: number }[];
}

/** Where reports read their figures: pre-aggregated, never by reading cases. `workflowIds` null: all of the organization's. */
export abstract class CaseReportFigures {
  abstract read(organizationId: number, range: ReportRange, workflowIds: readonly number[] | null, topErrors: number): Promise<ReportFigures>;
}

/** Folds the log of case changes into the rollups; answers how many changes it folded. */
export abstract class ReportFold {
  abstract fold(limit: number): Promise<number>;
}

import { Injectable } from '@nestjs/common';
import { CASE_SOURCES, type CaseSource } from '../../cases/domain/case.js';
import { type CloseTimePercentiles, percentiles } from '../domain/close-time-histogram.js';
import type { ReportRange } from '../domain/report-range.js';
import { CaseReportFigures } from './case-report.ports.js';

const TOP_ERRORS = 10;

interface Counts {
  created: number;
  closed: number;
  errored: number;
}

export interface CaseReport {
  from: string;
  to: string;
  interval: string;
  series: (Counts & { start: string; created_by_source: Record<CaseSource, number> })[];
  totals: Counts & { reopened: number };
  time_to_close_seconds: CloseTimePercentiles;
  open_by_status: Record<string, number>;
  top_errors: { message: string; count: number }[];
}

/** The report API's answer: live cases only, every interval of the range present, zeros included. */
@Injectable()
export class CaseReportService {
  constructor(private readonly figures: CaseReportFigures) {}

  async report(organizationId: number, range: ReportRange, workflowIds: readonly number[] | null): Promise<CaseReport> {
    const figures = await this.figures.read(organizationId, range, workflowIds, TOP_ERRORS);
    const series = range.starts().map((start) => ({
      start: range.format(start),
      created: 0,
      closed: 0,
      errored: 0,
      created_by_source: Object.fromEntries(CASE_SOURCES.map((source) => [source, 0])) as Record<CaseSource, number>,
    }));
    const totals = { created: 0, closed: 0, errored: 0, reopened: 0 };
    for (const f of figures.slots) {
      const interval = series[f.slot];
      if (!interval) throw new Error(`figures for interval ${f.slot}, outside the range`);
      const created = CASE_SOURCES.reduce((sum, source) => sum + f.createdBySource[source], f.createdByExtensions);
      interval.created = created;
      interval.closed = f.closed;
      interval.errored = f.errored;
      interval.created_by_source = f.createdBySource;
      totals.created += created;
      totals.closed += f.closed;
      totals.errored += f.errored;
      totals.reopened += f.reopened;
    }
    return {
      from: range.format(range.from),
      to: range.format(range.to),
      interval: range.interval,
      series,
      totals,
      time_to_close_seconds: percentiles(figures.closeTimes),
      open_by_status: Object.fromEntries(figures.openByStatus),
      top_errors: figures.topErrors,
    };
  }
}

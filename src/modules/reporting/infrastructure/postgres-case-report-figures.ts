import { Injectable } from '@nestjs/common';
import { ReplicaReads } from '../../../shared/database/replica-reads.js';
import { type Transaction, TransactionRunner } from '../../../shared/database/transaction.js';
import { withoutStatementTimeout } from '../../../shared/database/without-statement-timeout.js';
import { CASE_SOURCES, type CaseSource } from '../../cases/domain/case.js';
import type { ReportRange } from '../domain/report-range.js';
import { tileWithUtcPeriods } from '../domain/utc-periods.js';
import { CaseReportFigures, type ReportFigures, ReportFold, type SlotFigures } from '../application/case-report.ports.js';
import { FOLD, REPORT, type SlotRow } from './report-rollups.sql.js';
import { rowsIn } from './persistence.js';

@Injectable()
export class PostgresCaseReportFigures extends CaseReportFigures {
  constructor(private readonly replicaReads: ReplicaReads) {
    super();
  }

  async read(organizationId: number, range: ReportRange, workflowIds: readonly number[] | null, topErrors: number): Promise<ReportFigures> {
    const spans = tileWithUtcPeriods(range.from, range.to);
    const [row] = await this.replicaReads.rows(organizationId, REPORT, [
      organizationId,
      range.from,
      range.to,
      range.intervalMs / 1000,
      workflowIds,
      topErrors,
      wholeDaysEnd(range),
      spans.map((s) => s.grain),
      spans.map((s) => s.from),
      spans.map((s) => s.to),
    ]);
    return {
      slots: row!.slots.map(slotFigures),
      closeTimes: new Map(row!.close_times),
      openByStatus: row!.open_by_status.map((o) => [o.status, o.cases]),
      topErrors: row!.top_errors,
    };
  }
}

const DAY_MS = 86_400_000;

/** Where the series stops reading 24-hour rows: after the range's last whole day from `from`, or at once when reported by hour. */
function wholeDaysEnd(range: ReportRange): Date {
  if (range.intervalMs < DAY_MS) return range.from;
  const days = Math.floor((range.to.getTime() - range.from.getTime()) / DAY_MS);
  return new Date(range.from.getTime() + days * DAY_MS);
}

function slotFigures([slot, ...counts]: SlotRow): SlotFigures {
  const [createdByExtensions, closed, errored, reopened] = counts.slice(CASE_SOURCES.length);
  const createdBySource = Object.fromEntries(CASE_SOURCES.map((source, i) => [source, counts[i]!])) as Record<CaseSource, number>;
  return { slot: slot!, createdBySource, createdByExtensions: createdByExtensions!, closed: closed!, errored: errored!, reopened: reopened! };
}

/** A fold is not cut off by the pool's statement_timeout (withoutStatementTimeout): a backlog must drain, however large the rollups grew. */
@Injectable()
export class PostgresReportFold extends ReportFold {
  constructor(private readonly transactions: TransactionRunner) {
    super();
  }

  async fold(limit: number): Promise<number> {
    // The transaction's manager is what a Transaction is (typeorm-transaction-runner.ts).
    const [row] = await withoutStatementTimeout(this.transactions, (m) => rowsIn(m as unknown as Transaction, FOLD, [limit]));
    return row!.folded;
  }
}

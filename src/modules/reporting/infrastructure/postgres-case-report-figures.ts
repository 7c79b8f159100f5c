import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { PreparedStatements } from '../../../shared/database/prepared-statements.js';
import type { ReportRange } from '../domain/report-range.js';
import { CaseReportFigures, type ReportFigures, ReportFold, type SlotFigures } from '../application/case-report.ports.js';
import { FOLD_SQL, REPORT_SQL } from './report-rollups.sql.js';

interface ReportRow {
  slots: SlotFigures[];
  close_times: { bucket: number; cases: number }[];
  open_by_status: { status: string; cases: number }[];
  top_errors: { message: string; count: number }[];
}

@Injectable()
export class PostgresCaseReportFigures extends CaseReportFigures {
  private readonly prepared: PreparedStatements;

  constructor(@InjectDataSource() dataSource: DataSource) {
    super();
    this.prepared = new PreparedStatements(dataSource);
  }

  async read(organizationId: number, range: ReportRange, workflowIds: readonly number[] | null, topErrors: number): Promise<ReportFigures> {
    const [row] = await this.prepared.rows<ReportRow>(REPORT_SQL, [organizationId, range.from, range.to, range.intervalMs / 1000, workflowIds, topErrors]);
    return {
      slots: row!.slots,
      closeTimes: new Map(row!.close_times.map((t) => [t.bucket, t.cases])),
      openByStatus: row!.open_by_status.map((o) => [o.status, o.cases]),
      topErrors: row!.top_errors,
    };
  }
}

@Injectable()
export class PostgresReportFold extends ReportFold {
  private readonly prepared: PreparedStatements;

  constructor(@InjectDataSource() dataSource: DataSource) {
    super();
    this.prepared = new PreparedStatements(dataSource);
  }

  async fold(limit: number): Promise<number> {
    const [row] = await this.prepared.rows<{ folded: number }>(FOLD_SQL, [limit]);
    return row!.folded;
  }
}

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { PreparedStatements } from '../../../shared/database/prepared-statements.js';
import { type CaseFilter, CaseQueries, type StoredCaseEvent } from '../application/case-queries.js';
import type { CaseProps } from '../domain/case.js';
import { CASE_COLUMNS, type CaseRow, toProps } from './case.mapper.js';

const GET_CASE_SQL = `SELECT ${CASE_COLUMNS} FROM cases WHERE id = $1 AND organization_id = $2`;

/** The case's events, or one row of nulls when it has none: no row at all means no such case. */
const TIMELINE_SQL = `
  SELECT e.id, e.type, e.actor, e.data, e.created_at
  FROM cases c LEFT JOIN case_events e ON e.case_id = c.id
  WHERE c.id = $1 AND c.organization_id = $2
  ORDER BY e.id`;

/** The admin read side, as named prepared statements like the repository's. */
@Injectable()
export class PostgresCaseQueries extends CaseQueries {
  private readonly prepared: PreparedStatements;

  constructor(@InjectDataSource() dataSource: DataSource) {
    super();
    this.prepared = new PreparedStatements(dataSource);
  }

  async list(organizationId: number, filter: CaseFilter): Promise<CaseProps[]> {
    const rows = await this.prepared.rows<CaseRow>(...listCasesStatement(organizationId, filter));
    return rows.map(toProps);
  }

  async get(organizationId: number, caseId: number): Promise<CaseProps | null> {
    const [row] = await this.prepared.rows<CaseRow>(GET_CASE_SQL, [caseId, organizationId]);
    return row ? toProps(row) : null;
  }

  async timeline(organizationId: number, caseId: number): Promise<StoredCaseEvent[] | null> {
    type EventRow = { id: string | null; type: string; actor: string; data: Record<string, unknown>; created_at: Date };
    const rows = await this.prepared.rows<EventRow>(TIMELINE_SQL, [caseId, organizationId]);
    if (!rows.length) return null;
    return rows.flatMap((row) => (row.id === null ? [] : [{ id: Number(row.id), type: row.type, actor: row.actor, data: row.data, createdAt: row.created_at }]));
  }
}

/**
 * Only the filters given go into the text (each combination is its own named statement), so
 * every plan can use the index that fits: `workflow_id = $n OR $n IS NULL` would not.
 */
function listCasesStatement(organizationId: number, filter: CaseFilter): [string, unknown[]] {
  const values: unknown[] = [organizationId];
  const where = ['organization_id = $1'];
  const conditions: [string, unknown][] = [
    ['workflow_id =', filter.workflowId],
    ['status =', filter.status],
    ['mode =', filter.mode],
    ['source =', filter.source],
    ['id <', filter.before],
  ];
  for (const [condition, value] of conditions) {
    if (value === undefined) continue;
    values.push(value);
    where.push(`${condition} $${values.length}`);
  }
  values.push(filter.limit + 1);
  return [`SELECT ${CASE_COLUMNS} FROM cases WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT $${values.length}`, values];
}

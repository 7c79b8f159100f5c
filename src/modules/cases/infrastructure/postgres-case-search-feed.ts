import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { column } from '../../../shared/database/typed-statement.js';
import { prepared, statement } from './persistence.js';
import { type CaseReply, CaseSearchFeed, type ChangedCase, type WorkflowFeedPosition } from '../application/case-search-feed.js';
import { CASE_COLUMNS, toProps } from './case.mapper.js';
import { CASE_ROW } from './case-row.columns.js';

/**
 * The change feed of many workflows in one statement (FEED_PAGE without the purge check,
 * which the indexer does not need: a purged case's document goes with it). Each workflow's
 * part walks cases_changes (workflow_id, change_xid, id) from its position, so a pass costs the
 * workflows' count in index probes plus the rows it returns. `settled` is true up to the first
 * case changed less than $6 ms ago (by the database's clock, which wrote updated_at), so each
 * part ends there and no later change is passed over.
 */
const CHANGED_AFTER = statement(
  `
  SELECT ${CASE_COLUMNS}, c.change_xid::text AS change_xid
  FROM unnest($1::bigint[], $2::bigint[], $3::xid8[], $4::bigint[]) WITH ORDINALITY AS p(p_organization, p_workflow, p_xid, p_case, p_n)
  CROSS JOIN LATERAL (
    SELECT * FROM (
      SELECT *, bool_and(updated_at <= now() - $6::int * interval '1 millisecond') OVER (ORDER BY change_xid, id) AS settled
      FROM cases
      WHERE workflow_id = p.p_workflow AND (change_xid, id) > (p.p_xid, p.p_case)
        AND change_xid < pg_snapshot_xmin(pg_current_snapshot()) AND organization_id = p.p_organization
      ORDER BY change_xid, id LIMIT $5
    ) f
    WHERE f.settled
  ) c
  ORDER BY p.p_n, c.change_xid, c.id LIMIT $5`,
  { ...CASE_ROW, change_xid: column.text },
);

/** Along the timeline's key (organization_id, case_id, id, created_at), each case's organization from its row. */
const REPLIES = statement(
  `
  SELECT e.case_id, e.id, left(e.data->>'subject', $2) AS subject, left(e.data->>'text', $2) AS text
  FROM cases c CROSS JOIN LATERAL (
    SELECT case_id, id, data FROM case_events WHERE organization_id = c.organization_id AND case_id = c.id AND type = 'email_received'
  ) e
  WHERE c.id = ANY($1::bigint[])
  ORDER BY e.case_id, e.id`,
  { case_id: column.int8, id: column.int8, subject: column.nullable(column.text), text: column.nullable(column.text) },
);

@Injectable()
export class PostgresCaseSearchFeed extends CaseSearchFeed {
  private readonly prepared: ReturnType<typeof prepared>;

  constructor(@InjectDataSource() dataSource: DataSource) {
    super();
    this.prepared = prepared(dataSource);
  }

  async changedAfter(positions: readonly WorkflowFeedPosition[], limit: number, settledMs: number): Promise<ChangedCase[]> {
    if (!positions.length) return [];
    const rows = await this.prepared.rows(CHANGED_AFTER, [
      positions.map((p) => p.organizationId),
      positions.map((p) => p.workflowId),
      positions.map((p) => p.xid),
      positions.map((p) => p.caseId),
      limit,
      settledMs,
    ]);
    return rows.map((row) => ({ case: toProps(row), xid: row.change_xid }));
  }

  async replies(caseIds: readonly number[], maxChars: number): Promise<CaseReply[]> {
    if (!caseIds.length) return [];
    const rows = await this.prepared.rows(REPLIES, [caseIds, maxChars]);
    return rows.map((row) => ({ caseId: Number(row.case_id), id: Number(row.id), subject: row.subject, text: row.text }));
  }
}

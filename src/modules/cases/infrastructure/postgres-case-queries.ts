import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { ReplicaReads } from '../../../shared/database/replica-reads.js';
import { column, type RowOf } from '../../../shared/database/typed-statement.js';
import { type CasesStatement, prepared, statement, statementBuilder } from './persistence.js';
import { FEED_START } from '../application/case-cursors.js';
import { casesShownOnSql } from './postgres-case-merges.js';
import { type CaseFilter, CaseQueries, DEFAULT_CASE_SORT, type FeedCursor, type FeedPage, type ListPosition, type Positioned, type StoredAttachment, type StoredCaseEvent, type StoredRun } from '../application/case-queries.js';
import type { CaseProps } from '../domain/case.js';
import { CaseWatchingSql, type WatchingSql } from '../domain/case-watching-sql.js';
import { CaseServiceLevels } from '../domain/case-service-levels.js';
import { toProps, WORKED_CASE_COLUMNS } from './case.mapper.js';
import { WORKED_CASE_ROW } from './case-row.columns.js';
import { listCasesStatement, listedIdsStatement, UNLENT_WATCHING } from './case-list.sql.js';

const GET_CASE = statement(`SELECT ${WORKED_CASE_COLUMNS} FROM cases WHERE id = $1 AND organization_id = $2`, WORKED_CASE_ROW);
/** Declared with the watchers' SQL unlent, as the lists are (case-list.sql.ts). */
const getCaseWithWatchers = statementBuilder(
  (watching: WatchingSql) => `SELECT ${WORKED_CASE_COLUMNS}, ${watching.watcherCount('cases')} AS watchers FROM cases WHERE id = $1 AND organization_id = $2`,
  { ...WORKED_CASE_ROW, watchers: column.int4 },
  [[UNLENT_WATCHING]],
);
const SOME_CASES = statement(`SELECT ${WORKED_CASE_COLUMNS} FROM cases WHERE id = ANY($1::bigint[]) AND organization_id = $2`, WORKED_CASE_ROW);

/**
 * A page of the case's events after the event $3, at most $4, or one row of nulls when there is
 * none: no row at all means no such case. The page walks the timeline's key (organization_id, case_id, id, created_at).
 */
const TIMELINE = statement(
  `
  SELECT e.id, e.type, e.actor, e.data, e.created_at
  FROM cases c LEFT JOIN LATERAL (
    SELECT * FROM case_events WHERE organization_id = c.organization_id AND case_id = c.id AND id > $3::bigint ORDER BY id LIMIT $4
  ) e ON true
  WHERE c.id = $1 AND c.organization_id = $2
  ORDER BY e.id`,
  // Only `id` is null in the one row of nulls, whose other columns are never read.
  { id: column.nullable(column.int8), type: column.text, actor: column.text, data: column.jsonb<Record<string, unknown>>(), created_at: column.timestamptz },
);

/** A page of the case's runs after the run $3, at most $4, or one row of nulls as TIMELINE; it walks workflow_runs_case (case_id, id). */
const RUNS = statement(
  `
  SELECT r.id, r.status, r.on_sla, r.workflow_version, r.state, r.started_at, r.finished_at, r.error, r.steps, r.steps_omitted
  FROM cases c LEFT JOIN LATERAL (
    SELECT * FROM workflow_runs WHERE case_id = c.id AND id > $3::bigint ORDER BY id LIMIT $4
  ) r ON true
  WHERE c.id = $1 AND c.organization_id = $2
  ORDER BY r.id`,
  {
    id: column.nullable(column.int8),
    status: column.text,
    on_sla: column.nullable(column.textOf<NonNullable<StoredRun['onSla']>>()),
    workflow_version: column.int4,
    state: column.textOf<StoredRun['state']>(),
    started_at: column.nullable(column.timestamptz),
    finished_at: column.nullable(column.timestamptz),
    error: column.nullable(column.text),
    steps: column.jsonb<StoredRun['steps']>(),
    steps_omitted: column.int4,
  },
);

/** `$4` null: any workflow of the organization. A case serves the files of the cases merged into it too (their messages show on it). */
const ATTACHMENT = statement(
  `
  SELECT a.filename, a.content_type, a.content
  FROM case_attachments a JOIN cases c ON c.id = $2
  WHERE a.id = $1 AND a.case_id IN (${casesShownOnSql('$3', '$2')}) AND c.organization_id = $3 AND (c.workflow_id = $4 OR $4::bigint IS NULL)`,
  { filename: column.nullable(column.text), content_type: column.text, content: column.bytea },
);

/**
 * One page of a workflow's change feed (docs/change-feed.md), with the purge check, in one
 * statement and so one snapshot. $1 organization, $2 workflow, $3-$4 the cursor's position
 * (transaction id, case id), $5 whether to check purges, $6 how many of the workflow's purges the
 * cursor's page saw, $7 the page size.
 *
 * A case is delivered once its last change was written by a transaction below the snapshot's
 * xmin: every transaction below it has ended, and no transaction can ever again get an id below
 * it, so no change can appear behind the position handed out. A transaction running now (or
 * started later) writes at its own id, at or above xmin, which the next pages reach once it
 * ends. The page walks cases_changes (workflow_id, change_xid, id) from the cursor: its cost
 * is the page's size, not the table's.
 *
 * The cursor is expired when a purge its page did not see (numbered above the purges of the
 * workflow that page counted) deleted a case whose last change lies beyond it. Purges are counted
 * on one row per workflow that each purge updates and holds until it commits, so they commit in
 * the order of their numbers and a snapshot sees exactly those up to the count it reads.
 *
 * The same holds on a streaming replica (ReplicaReads): a hot standby's snapshot is the primary's
 * at the WAL position it has replayed, its xmin below every transaction the primary was running
 * there (and below any id the replica has seen no record of yet, which it counts as running). A
 * replica behind the primary answers an earlier page, never one with a change missing; a page
 * from a replica further behind than the cursor's is empty, and the next finds what it missed.
 */
// Who works each case and its priority too: the SLA pass computes a changed case's timers from
// the page (the cases API's representation leaves them out).
const FEED_PAGE = statement(
  `
  WITH h AS MATERIALIZED (
    SELECT coalesce((SELECT e.purges FROM case_feed_purge_counts e WHERE e.organization_id = $1 AND e.workflow_id = $2), 0)::text AS purges_seen,
           $5::boolean AND EXISTS (
             SELECT 1 FROM case_feed_purges p
             WHERE p.workflow_id = $2 AND p.purge > $6::bigint AND (p.change_xid, p.case_id) > ($3::xid8, $4::bigint)
           ) AS expired
  )
  SELECT ${WORKED_CASE_COLUMNS}, c.change_xid::text AS change_xid, h.expired, h.purges_seen
  FROM h LEFT JOIN LATERAL (
    SELECT * FROM cases
    WHERE workflow_id = $2 AND (change_xid, id) > ($3::xid8, $4::bigint)
      AND change_xid < pg_snapshot_xmin(pg_current_snapshot()) AND organization_id = $1
    ORDER BY change_xid, id LIMIT $7
  ) c ON NOT h.expired
  ORDER BY c.change_xid, c.id`,
  // As TIMELINE: only `id` tells the row of nulls of an expired or empty page.
  { ...WORKED_CASE_ROW, id: column.nullable(column.int8), change_xid: column.text, expired: column.bool, purges_seen: column.text },
);

/** The read side, as named prepared statements like the repository's. */
@Injectable()
export class PostgresCaseQueries extends CaseQueries {
  private readonly prepared: ReturnType<typeof prepared>;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly replicaReads: ReplicaReads,
    private readonly watching: CaseWatchingSql,
    private readonly serviceLevels: CaseServiceLevels,
  ) {
    super();
    this.prepared = prepared(dataSource);
  }

  async list(organizationId: number, filter: CaseFilter): Promise<Positioned<ListPosition>[]> {
    const sort = filter.sort ?? DEFAULT_CASE_SORT;
    const rows = await this.read(organizationId, filter, listCasesStatement(organizationId, filter, this.watching.sql, this.serviceLevels));
    return rows.map((row) => ({ case: withWatchers(toProps(row), row.watchers), position: { sort, value: row.sort_value, id: row.id } }));
  }

  async ids(organizationId: number, filter: CaseFilter): Promise<number[]> {
    const rows = await this.read(organizationId, filter, listedIdsStatement(organizationId, filter, this.watching.sql, this.serviceLevels));
    return rows.map((row) => Number(row.id));
  }

  /** A search's tiers are planned for their own tsquery at every read (PreparedStatements.planned). Lists may be read from the replica. */
  private read<Row>(organizationId: number, filter: CaseFilter, { statement, values }: { statement: CasesStatement<Row>; values: unknown[] }): Promise<Row[]> {
    return filter.search ? this.replicaReads.planned(organizationId, statement, values) : this.replicaReads.rows(organizationId, statement, values);
  }

  async changes(organizationId: number, workflowId: number, cursor: FeedCursor | null, limit: number): Promise<FeedPage> {
    const from = cursor ?? { after: FEED_START, purgesSeen: '0' };
    const rows = await this.replicaReads.rows(organizationId, FEED_PAGE, [organizationId, workflowId, from.after.xid, from.after.id, cursor !== null, from.purgesSeen, limit]);
    return {
      expired: rows[0]!.expired,
      purgesSeen: rows[0]!.purges_seen,
      changed: rows.flatMap(({ id, ...row }) => (id === null ? [] : [{ case: toProps({ ...row, id }), position: { xid: row.change_xid, id } }])),
    };
  }

  async get(organizationId: number, caseId: number, watchers = false): Promise<CaseProps | null> {
    const statement: CasesStatement<RowOf<typeof WORKED_CASE_ROW> & { watchers?: number }> = watchers ? getCaseWithWatchers(this.watching.sql) : GET_CASE;
    const [row] = await this.prepared.rows(statement, [caseId, organizationId]);
    return row ? withWatchers(toProps(row), row.watchers) : null;
  }

  async some(organizationId: number, caseIds: readonly number[]): Promise<CaseProps[]> {
    const rows = await this.prepared.rows(SOME_CASES, [caseIds, organizationId]);
    return rows.map(toProps);
  }

  async attachment(organizationId: number, caseId: number, attachmentId: string, workflowId?: number): Promise<StoredAttachment | null> {
    const [row] = await this.prepared.rows(ATTACHMENT, [attachmentId, caseId, organizationId, workflowId ?? null]);
    return row ? { filename: row.filename, contentType: row.content_type, content: row.content } : null;
  }

  async timeline(organizationId: number, caseId: number, afterId: string, limit: number): Promise<StoredCaseEvent[] | null> {
    const rows = await this.prepared.rows(TIMELINE, [caseId, organizationId, afterId, limit]);
    if (!rows.length) return null;
    return rows.flatMap((row) => (row.id === null ? [] : [{ id: Number(row.id), type: row.type, actor: row.actor, data: row.data, createdAt: row.created_at }]));
  }

  async runs(organizationId: number, caseId: number, afterId: string, limit: number): Promise<StoredRun[] | null> {
    const rows = await this.prepared.rows(RUNS, [caseId, organizationId, afterId, limit]);
    if (!rows.length) return null;
    return rows.flatMap((row) =>
      row.id === null
        ? []
        : [{ id: Number(row.id), status: row.status, onSla: row.on_sla, workflowVersion: row.workflow_version, state: row.state, startedAt: row.started_at, finishedAt: row.finished_at, error: row.error, steps: row.steps, stepsOmitted: row.steps_omitted }],
    );
  }
}

function withWatchers(props: CaseProps, watchers: number | undefined): CaseProps {
  return watchers === undefined ? props : { ...props, watchers };
}

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { PreparedStatements } from '../../../shared/database/prepared-statements.js';
import { FEED_START } from '../application/case-cursors.js';
import { casesShownOnSql } from './postgres-case-merges.js';
import { type CaseFilter, CaseQueries, type CaseSortName, DEFAULT_CASE_SORT, type FeedCursor, type FeedPage, type ListPosition, type Positioned, type StoredAttachment, type StoredCaseEvent, type StoredRun } from '../application/case-queries.js';
import type { CaseProps } from '../domain/case.js';
import { CaseWatchingSql, type WatchingSql } from '../domain/case-watching-sql.js';
import { CaseServiceLevels } from '../domain/case-service-levels.js';
import { CASE_COLUMNS, type CaseRow, toProps, WORKED_CASE_COLUMNS } from './case.mapper.js';

const GET_CASE_SQL = `SELECT ${WORKED_CASE_COLUMNS} FROM cases WHERE id = $1 AND organization_id = $2`;
const getCaseWithWatchersSql = (watching: WatchingSql) => `SELECT ${WORKED_CASE_COLUMNS}, ${watching.watcherCount('cases')} AS watchers FROM cases WHERE id = $1 AND organization_id = $2`;
const SOME_CASES_SQL = `SELECT ${WORKED_CASE_COLUMNS} FROM cases WHERE id = ANY($1::bigint[]) AND organization_id = $2`;

/**
 * A page of the case's events after the event $3, at most $4, or one row of nulls when there is
 * none: no row at all means no such case. The page walks case_events_case (case_id, id).
 */
const TIMELINE_SQL = `
  SELECT e.id, e.type, e.actor, e.data, e.created_at
  FROM cases c LEFT JOIN LATERAL (
    SELECT * FROM case_events WHERE case_id = c.id AND id > $3::bigint ORDER BY id LIMIT $4
  ) e ON true
  WHERE c.id = $1 AND c.organization_id = $2
  ORDER BY e.id`;

/** A page of the case's runs after the run $3, at most $4, or one row of nulls as TIMELINE_SQL; it walks workflow_runs_case (case_id, id). */
const RUNS_SQL = `
  SELECT r.id, r.status, r.on_sla, r.workflow_version, r.state, r.started_at, r.finished_at, r.error, r.steps, r.steps_omitted
  FROM cases c LEFT JOIN LATERAL (
    SELECT * FROM workflow_runs WHERE case_id = c.id AND id > $3::bigint ORDER BY id LIMIT $4
  ) r ON true
  WHERE c.id = $1 AND c.organization_id = $2
  ORDER BY r.id`;

/** `$4` null: any workflow of the organization. A case serves the files of the cases merged into it too (their messages show on it). */
const ATTACHMENT_SQL = `
  SELECT a.filename, a.content_type, a.content
  FROM case_attachments a JOIN cases c ON c.id = $2
  WHERE a.id = $1 AND a.case_id IN (${casesShownOnSql('$3', '$2')}) AND c.organization_id = $3 AND (c.workflow_id = $4 OR $4::bigint IS NULL)`;

/** A list position's microseconds as a timestamptz, in exact integer steps (a float8 product would round beyond 2^53). */
const AT_MICROS = (p: string) => `(timestamptz 'epoch' + (${p}::bigint / 1000000) * interval '1 second' + (${p}::bigint % 1000000) * interval '1 microsecond')`;

/**
 * One page of a workflow's change feed (docs/change-feed.md), with the purge check, in one
 * statement and so one snapshot. $1 organization, $2 workflow, $3-$4 the cursor's position
 * (transaction id, case id), $5 whether to check purges, $6 the oldest transaction running when
 * the cursor's page was read, $7 the page size.
 *
 * A case is delivered once its last change was written by a transaction below the snapshot's
 * xmin: every transaction below it has ended, and no transaction can ever again get an id below
 * it, so no change can appear behind the position handed out. A transaction running now (or
 * started later) writes at its own id, at or above xmin, which the next pages reach once it
 * ends. The page walks cases_changes (workflow_id, change_xid, id) from the cursor: its cost
 * is the page's size, not the table's.
 *
 * The cursor is expired when a purge its page did not see (so with an id at or above that
 * page's xmin) deleted a case whose last change lies beyond it.
 */
const FEED_PAGE_SQL = `
  WITH h AS MATERIALIZED (
    SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS read_below,
           $5::boolean AND EXISTS (
             SELECT 1 FROM case_feed_purges p
             WHERE p.workflow_id = $2 AND p.purge_xid >= $6::xid8 AND (p.change_xid, p.case_id) > ($3::xid8, $4::bigint)
           ) AS expired
  )
  SELECT ${CASE_COLUMNS}, c.change_xid::text AS change_xid, h.expired, h.read_below
  FROM h LEFT JOIN LATERAL (
    SELECT * FROM cases
    WHERE workflow_id = $2 AND (change_xid, id) > ($3::xid8, $4::bigint)
      AND change_xid < pg_snapshot_xmin(pg_current_snapshot()) AND organization_id = $1
    ORDER BY change_xid, id LIMIT $7
  ) c ON NOT h.expired
  ORDER BY c.change_xid, c.id`;

/** The read side, as named prepared statements like the repository's. */
@Injectable()
export class PostgresCaseQueries extends CaseQueries {
  private readonly prepared: PreparedStatements;

  constructor(@InjectDataSource() dataSource: DataSource, private readonly watching: CaseWatchingSql, private readonly serviceLevels: CaseServiceLevels) {
    super();
    this.prepared = new PreparedStatements(dataSource);
  }

  async list(organizationId: number, filter: CaseFilter): Promise<Positioned<ListPosition>[]> {
    const sort = filter.sort ?? DEFAULT_CASE_SORT;
    const rows = await this.read<CaseRow & { sort_value: string; watchers?: string }>(filter, listCasesStatement(organizationId, filter, this.watching.sql, this.serviceLevels));
    return rows.map((row) => ({ case: withWatchers(toProps(row), row.watchers), position: { sort, value: row.sort_value, id: row.id } }));
  }

  async ids(organizationId: number, filter: CaseFilter): Promise<number[]> {
    const rows = await this.read<{ id: string }>(filter, listedIdsStatement(organizationId, filter, this.watching.sql, this.serviceLevels));
    return rows.map((row) => Number(row.id));
  }

  /** A search's tiers are planned for their own tsquery at every read (PreparedStatements.planned). */
  private read<T>(filter: CaseFilter, [text, values]: [string, unknown[]]): Promise<T[]> {
    return filter.search ? this.prepared.planned<T>(text, values) : this.prepared.rows<T>(text, values);
  }

  async changes(organizationId: number, workflowId: number, cursor: FeedCursor | null, limit: number): Promise<FeedPage> {
    const from = cursor ?? { after: FEED_START, readBelow: '0' };
    type FeedRow = CaseRow & { change_xid: string; expired: boolean; read_below: string };
    const rows = await this.prepared.rows<FeedRow>(FEED_PAGE_SQL, [organizationId, workflowId, from.after.xid, from.after.id, cursor !== null, from.readBelow, limit]);
    return {
      expired: rows[0]!.expired,
      readBelow: rows[0]!.read_below,
      changed: rows.flatMap((row) => (row.id === null ? [] : [{ case: toProps(row), position: { xid: row.change_xid, id: row.id } }])),
    };
  }

  async get(organizationId: number, caseId: number, watchers = false): Promise<CaseProps | null> {
    const [row] = await this.prepared.rows<CaseRow & { watchers?: string }>(watchers ? getCaseWithWatchersSql(this.watching.sql) : GET_CASE_SQL, [caseId, organizationId]);
    return row ? withWatchers(toProps(row), row.watchers) : null;
  }

  async some(organizationId: number, caseIds: readonly number[]): Promise<CaseProps[]> {
    const rows = await this.prepared.rows<CaseRow>(SOME_CASES_SQL, [caseIds, organizationId]);
    return rows.map(toProps);
  }

  async attachment(organizationId: number, caseId: number, attachmentId: string, workflowId?: number): Promise<StoredAttachment | null> {
    type AttachmentRow = { filename: string | null; content_type: string; content: Buffer };
    const [row] = await this.prepared.rows<AttachmentRow>(ATTACHMENT_SQL, [attachmentId, caseId, organizationId, workflowId ?? null]);
    return row ? { filename: row.filename, contentType: row.content_type, content: row.content } : null;
  }

  async timeline(organizationId: number, caseId: number, afterId: string, limit: number): Promise<StoredCaseEvent[] | null> {
    type EventRow = { id: string | null; type: string; actor: string; data: Record<string, unknown>; created_at: Date };
    const rows = await this.prepared.rows<EventRow>(TIMELINE_SQL, [caseId, organizationId, afterId, limit]);
    if (!rows.length) return null;
    return rows.flatMap((row) => (row.id === null ? [] : [{ id: Number(row.id), type: row.type, actor: row.actor, data: row.data, createdAt: row.created_at }]));
  }

  async runs(organizationId: number, caseId: number, afterId: string, limit: number): Promise<StoredRun[] | null> {
    type RunRow = { id: string | null; status: string; on_sla: StoredRun['onSla']; workflow_version: number; state: StoredRun['state']; started_at: Date | null; finished_at: Date | null; error: string | null; steps: StoredRun['steps']; steps_omitted: number };
    const rows = await this.prepared.rows<RunRow>(RUNS_SQL, [caseId, organizationId, afterId, limit]);
    if (!rows.length) return null;
    return rows.flatMap((row) =>
      row.id === null
        ? []
        : [{ id: Number(row.id), status: row.status, onSla: row.on_sla, workflowVersion: row.workflow_version, state: row.state, startedAt: row.started_at, finishedAt: row.finished_at, error: row.error, steps: row.steps, stepsOmitted: row.steps_omitted }],
    );
  }
}

/**
 * Time bounds compare the time as the API shows it, to the millisecond (Postgres keeps
 * microseconds): `created_after` set to a case's own `created_at` leaves that case out. The
 * first, wider comparison is the one an index range can use.
 */
const shownAfter = (column: string, p: string) => `${column} > ${p}::timestamptz AND date_trunc('milliseconds', ${column}) > ${p}::timestamptz`;
const shownBefore = (column: string, p: string) => `${column} < ${p}::timestamptz + interval '1 millisecond' AND date_trunc('milliseconds', ${column}) < ${p}::timestamptz`;

/** Where the due-time order puts a case without a running SLA clock. */
const NO_DUE_TIME = `timestamptz '9999-12-31T00:00:00Z'`;

/** A priority's rank, `low` 0 to `urgent` 3: the order of the priority sort. */
const PRIORITY_RANK = `(CASE priority WHEN 'low' THEN 0 WHEN 'normal' THEN 1 WHEN 'high' THEN 2 ELSE 3 END)`;
const MICROS = (column: string) => `(extract(epoch FROM ${column}) * 1000000)::bigint`;

/** Each order's key as SQL, its value as a cursor keeps it, and that value back as the key's type. */
function orderOf(sort: CaseSortName, serviceLevels: CaseServiceLevels): { key: string; value: string; at: (p: string) => string; direction: 'ASC' | 'DESC'; after: '<' | '>' } {
  const descending = sort.startsWith('-');
  const name = descending ? sort.slice(1) : sort;
  const direction = descending ? 'DESC' : 'ASC';
  const after = descending ? '<' : '>';
  if (name === 'priority') return { key: PRIORITY_RANK, value: `${PRIORITY_RANK}::text`, at: (p) => `${p}::int`, direction, after };
  if (name === 'due_at') {
    // A case with no running clock sorts after every due time: a cursor needs a value to compare.
    const due = `coalesce(${serviceLevels.nextDueAt('cases')}, ${NO_DUE_TIME})`;
    return { key: due, value: `${MICROS(due)}::text`, at: AT_MICROS, direction, after };
  }
  return { key: name, value: `${MICROS(name)}::text`, at: AT_MICROS, direction, after };
}

function withWatchers(props: CaseProps, watchers: string | undefined): CaseProps {
  return watchers === undefined ? props : { ...props, watchers: Number(watchers) };
}

/** The WHERE of a filtered case list: `organization_id = $1` and each filter given, its values pushed onto `values`. */
function caseFilterWhere(organizationId: number, filter: CaseFilter, watching: WatchingSql, serviceLevels: CaseServiceLevels): { where: string[]; values: unknown[]; param: (value: unknown) => string } {
  const values: unknown[] = [organizationId];
  const where = ['organization_id = $1'];
  const param = (value: unknown) => `$${values.push(value)}`;
  const conditions: [unknown, (p: string) => string][] = [
    [filter.workflowId, (p) => `workflow_id = ${p}`],
    [filter.statuses, (p) => `status = ANY(${p}::text[])`],
    [filter.mode, (p) => `mode = ${p}`],
    [filter.source, (p) => `source = ${p}`],
    [filter.createdAfter, (p) => shownAfter('created_at', p)],
    [filter.createdBefore, (p) => shownBefore('created_at', p)],
    [filter.updatedAfter, (p) => shownAfter('updated_at', p)],
    [filter.updatedBefore, (p) => shownBefore('updated_at', p)],
    [filter.attributes, (p) => `attributes @> ${p}::jsonb`],
    [typeof filter.assignee === 'number' ? filter.assignee : undefined, (p) => `assignee_id = ${p}::bigint`],
    [filter.teamId, (p) => `team_id = ${p}::bigint`],
    [filter.priorities, (p) => `priority = ANY(${p}::text[])`],
    [filter.watchedBy, (p) => watching.watchedBy('cases', p)],
  ];
  for (const [value, condition] of conditions) {
    if (value !== undefined) where.push(condition(param(value)));
  }
  if (filter.assignee === 'none') where.push('assignee_id IS NULL');
  if (filter.sla) where.push(serviceLevels.inState('cases', filter.sla));
  if (filter.search) where.push(filter.search.condition(param));
  return { where, values, param };
}

/**
 * Only the filters given go into the text (each combination is its own named statement), so
 * every plan can use the index that fits: `workflow_id = $n OR $n IS NULL` would not. The
 * newest-first order (created_at, id) is that of cases_workflow and cases_organization, which
 * the page walks from the cursor; an assignee, team or priority filter has its partial index in
 * that order too (cases_by_assignee, cases_by_team, cases_by_priority); the other filters are
 * checked on the rows it meets. The other orders have no index of their own, so that intake
 * pays for none: their page sorts the organization's matching cases (a filter narrows them).
 * Every order ends with the id, so a page starts exactly after the previous one's last case;
 * `updated_at` moves when a case changes, so a case changed while a client pages may be met
 * twice or not at all, as in any list ordered by its last change.
 */
function listCasesStatement(organizationId: number, filter: CaseFilter, watching: WatchingSql, serviceLevels: CaseServiceLevels): [string, unknown[]] {
  const { where, values, param } = caseFilterWhere(organizationId, filter, watching, serviceLevels);
  const order = orderOf(filter.sort ?? DEFAULT_CASE_SORT, serviceLevels);
  if (filter.after) where.push(`(${order.key}, id) ${order.after} (${order.at(param(filter.after.value))}, ${param(filter.after.id)}::bigint)`);
  const limit = param(filter.limit + 1);
  return [
    `SELECT ${WORKED_CASE_COLUMNS}, ${order.value} AS sort_value${filter.withWatchers ? `, ${watching.watcherCount('cases')} AS watchers` : ''}
     FROM cases WHERE ${where.join(' AND ')} ORDER BY ${order.key} ${order.direction}, id ${order.direction} LIMIT ${limit}`,
    values,
  ];
}

/** The ids of the list's first `filter.limit` cases (newest first): the walk of listCasesStatement, reading ids only. */
function listedIdsStatement(organizationId: number, filter: CaseFilter, watching: WatchingSql, serviceLevels: CaseServiceLevels): [string, unknown[]] {
  const { where, values, param } = caseFilterWhere(organizationId, filter, watching, serviceLevels);
  const limit = param(filter.limit);
  return [`SELECT id FROM cases WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT ${limit}`, values];
}

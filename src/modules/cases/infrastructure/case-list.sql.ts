import { column, type RowOf } from '../../../shared/database/typed-statement.js';
import { type CasesStatement, statementBuilder } from './persistence.js';
import { CASE_SORTS, type CaseFilter, type CaseSortName, DEFAULT_CASE_SORT } from '../application/case-queries.js';
import { CaseServiceLevels } from '../domain/case-service-levels.js';
import { CaseWatchingSql, type WatchingSql } from '../domain/case-watching-sql.js';
import { WORKED_CASE_COLUMNS } from './case.mapper.js';
import { WORKED_CASE_ROW } from './case-row.columns.js';

/** A list position's microseconds as a timestamptz, in exact integer steps (a float8 product would round beyond 2^53). */
const AT_MICROS = (p: string) => `(timestamptz 'epoch' + (${p}::bigint / 1000000) * interval '1 second' + (${p}::bigint % 1000000) * interval '1 microsecond')`;

/**
 * Time bounds compare the time as the API shows it, to the millisecond (Postgres keeps
 * microseconds): `created_after` set to a case's own `created_at` leaves that case out. The
 * first, wider comparison is the one an index range can use.
 */
const shownAfter = (field: string, p: string) => `${field} > ${p}::timestamptz AND date_trunc('milliseconds', ${field}) > ${p}::timestamptz`;
const shownBefore = (field: string, p: string) => `${field} < ${p}::timestamptz + interval '1 millisecond' AND date_trunc('milliseconds', ${field}) < ${p}::timestamptz`;

/** Where the due-time order puts a case without a running SLA clock. */
const NO_DUE_TIME = `timestamptz '9999-12-31T00:00:00Z'`;

/** A priority's rank, `low` 0 to `urgent` 3: the order of the priority sort. */
const PRIORITY_RANK = `(CASE priority WHEN 'low' THEN 0 WHEN 'normal' THEN 1 WHEN 'high' THEN 2 ELSE 3 END)`;
const MICROS = (field: string) => `(extract(epoch FROM ${field}) * 1000000)::bigint`;

/** An order's key as SQL, its value as a cursor keeps it, and that value back as the key's type. */
interface Order {
  key: string;
  value: string;
  at: (p: string) => string;
  direction: 'ASC' | 'DESC';
  after: '<' | '>';
}

function orderOf(sort: CaseSortName, serviceLevels: CaseServiceLevels): Order {
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
function listRead(organizationId: number, filter: CaseFilter, watching: WatchingSql, serviceLevels: CaseServiceLevels): { read: ListRead; values: unknown[] } {
  const { where, values, param } = caseFilterWhere(organizationId, filter, watching, serviceLevels);
  const order = orderOf(filter.sort ?? DEFAULT_CASE_SORT, serviceLevels);
  if (filter.after) where.push(`(${order.key}, id) ${order.after} (${order.at(param(filter.after.value))}, ${param(filter.after.id)}::bigint)`);
  return { read: { where, order, limit: param(filter.limit + 1) }, values };
}

/** A page of a list as SQL, the values it binds apart: its text follows the filters given and the order, never their values. */
interface ListRead {
  where: string[];
  order: Order;
  limit: string;
}

const listSql = ({ where, order, limit }: ListRead, watchers: string) => `SELECT ${WORKED_CASE_COLUMNS}, ${order.value} AS sort_value${watchers}
     FROM cases WHERE ${where.join(' AND ')} ORDER BY ${order.key} ${order.direction}, id ${order.direction} LIMIT ${limit}`;

/**
 * What the list builders are declared with: the organization's SQL that other modules lend at
 * start (the watchers', the clocks', a search's tiers) left out, as the unlent SQL makes them.
 * `watchedBy` is the comments module's condition alone: unlent, its value is bound to nothing
 * Postgres could type, so no shape has it.
 */
export const UNLENT_WATCHING = new CaseWatchingSql().sql;
const UNLENT_SERVICE_LEVELS = new CaseServiceLevels();
const EVERY_FILTER: CaseFilter = {
  workflowId: 1, statuses: ['open'], mode: 'live', source: 'API', attributes: '{}', assignee: 1, teamId: 1, priorities: ['high'], limit: 1,
  createdAfter: '2026-01-01T00:00:00Z', createdBefore: '2026-01-01T00:00:00Z', updatedAfter: '2026-01-01T00:00:00Z', updatedBefore: '2026-01-01T00:00:00Z',
};
const FILTER_SHAPES: CaseFilter[] = [{ limit: 1 }, EVERY_FILTER, { assignee: 'none', sla: 'breached', limit: 1 }];
const PAGE_SHAPES: CaseFilter[] = [...FILTER_SHAPES, ...CASE_SORTS.map((sort): CaseFilter => ({ sort, after: { sort, value: '0', id: '0' }, limit: 1 }))];
const LIST_SHAPES = PAGE_SHAPES.map((filter): [ListRead] => [listRead(0, filter, UNLENT_WATCHING, UNLENT_SERVICE_LEVELS).read]);

const LISTED_CASE_ROW = { ...WORKED_CASE_ROW, sort_value: column.text };
const listPage = statementBuilder((read: ListRead) => listSql(read, ''), LISTED_CASE_ROW, LIST_SHAPES);
const listPageWithWatchers = statementBuilder(
  (read: ListRead, watcherCount: string) => listSql(read, `, ${watcherCount} AS watchers`),
  { ...LISTED_CASE_ROW, watchers: column.int4 },
  LIST_SHAPES.map(([read]): [ListRead, string] => [read, UNLENT_WATCHING.watcherCount('cases')]),
);

/** A page of the filtered list (`filter.limit + 1` cases, in its order), with the watcher counts when the filter asks for them. */
export function listCasesStatement(organizationId: number, filter: CaseFilter, watching: WatchingSql, serviceLevels: CaseServiceLevels): { statement: CasesStatement<ListedCaseRow>; values: unknown[] } {
  const { read, values } = listRead(organizationId, filter, watching, serviceLevels);
  return { statement: filter.withWatchers ? listPageWithWatchers(read, watching.watcherCount('cases')) : listPage(read), values };
}

export type ListedCaseRow = RowOf<typeof LISTED_CASE_ROW> & { watchers?: number };

const listedIdsSql = (where: string[], limit: string) => `SELECT id FROM cases WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT ${limit}`;
const listIds = statementBuilder(
  listedIdsSql,
  { id: column.int8 },
  FILTER_SHAPES.map((filter): [string[], string] => {
    const { where, param } = caseFilterWhere(0, filter, UNLENT_WATCHING, UNLENT_SERVICE_LEVELS);
    return [where, param(filter.limit)];
  }),
);

/** The ids of the list's first `filter.limit` cases (newest first): the walk of listCasesStatement, reading ids only. */
export function listedIdsStatement(organizationId: number, filter: CaseFilter, watching: WatchingSql, serviceLevels: CaseServiceLevels): { statement: CasesStatement<{ id: string }>; values: unknown[] } {
  const { where, values, param } = caseFilterWhere(organizationId, filter, watching, serviceLevels);
  const limit = param(filter.limit);
  return { statement: listIds(where, limit), values };
}

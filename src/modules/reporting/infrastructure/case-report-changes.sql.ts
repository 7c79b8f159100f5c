import type { CaseRowView, CaseStatementPart } from '../../cases/domain/case-statement-parts.js';
import { BUCKETS_PER_DOUBLING, LAST_BUCKET } from '../domain/close-time-bucket.js';

/** closeTimeBucket in SQL, of an interval expression. */
const closeTimeBucketSql = (interval: string) =>
  `least(${LAST_BUCKET}, ceil(${BUCKETS_PER_DOUBLING} * log(2::numeric, greatest(extract(epoch FROM ${interval}), 1)::numeric)))::smallint`;

/** Longest run failure message a report keeps (longer ones are cut). */
const REPORTED_ERROR_LENGTH = 200;

/**
 * The parts of the case statements that log what reports count (table `report_changes`, see
 * the CaseReports migration): a plain insert, no key and no upsert, so intakes of one workflow
 * never wait for each other's rollup row; the worker folds the log into the rollups. Cost
 * on the intake: one more row, without an index, in the statement that stores the case, no
 * round trip. Test cases write nothing.
 */

/** `, report_change AS (...)`: a live case `c` created. */
function createdReportSql(c: CaseRowView): string {
  return `, report_change AS (
      INSERT INTO report_changes (organization_id, workflow_id, at, source, created, status_to)
      SELECT ${c.organizationId}, ${c.workflowId}, ${c.createdAt}, ${c.source}, 1, nullif(${c.status}, 'Closed') FROM ${c.from} WHERE ${c.isLive}
    )`;
}

/**
 * `, report_change AS (...)`: a live case's status change and its runs' failures. `b` is the case
 * as it was before the statement (its mode, source and creation never change); `moved`, `to` the
 * parameters saying whether and where it moved; `runStates` and `runErrors` the runs' new states
 * and errors. Closed counts closes (with the time since creation), Error errors, leaving Closed
 * reopens; the open counts move with the status.
 */
function changedReportSql(b: CaseRowView, moved: string, to: string, runStates: string, runErrors: string): string {
  return `, report_change AS (
      INSERT INTO report_changes (organization_id, workflow_id, source, closed, errored, reopened, close_bucket, status_from, status_to, error)
      SELECT ${b.organizationId}, ${b.workflowId}, ${b.source}, (${to} = 'Closed')::int, (${to} = 'Error')::int, (${b.status} = 'Closed')::int,
             CASE WHEN ${to} = 'Closed' THEN ${closeTimeBucketSql(`now() - ${b.createdAt}`)} END,
             nullif(${b.status}, 'Closed'), nullif(${to}, 'Closed'), NULL
      FROM ${b.from} WHERE ${moved}::boolean AND ${b.isLive} AND ${b.status} IS DISTINCT FROM ${to}
      UNION ALL
      SELECT ${b.organizationId}, ${b.workflowId}, ${b.source}, 0, 0, 0, NULL, NULL, NULL, left(coalesce(u.error, 'failed'), ${REPORTED_ERROR_LENGTH})
      FROM ${b.from} CROSS JOIN unnest(${runStates}::text[], ${runErrors}::text[]) AS u(state, error)
      WHERE ${b.isLive} AND u.state = 'failed'
    )`;
}

/** The report log's part of the case statements. */
export const reportLogStatementPart: CaseStatementPart = {
  name: 'report_change',
  created: ({ newCase }) => createdReportSql(newCase),
  changed: ({ before, moved, to, runStates, runErrors }) => changedReportSql(before, moved, to, runStates, runErrors),
};

/**
 * The reporting SQL: the report (rollups plus the changes not folded yet, in one statement and
 * so one snapshot: a fold, itself one statement, is seen entirely or not at all) and the fold.
 * Every read of the report goes through an index that starts with the organization and the
 * hour; none reads `cases`.
 */

/** What a run failure message is counted as once an hour of a workflow already keeps MAX_MESSAGES_PER_HOUR others. */
export const OTHER_ERRORS = '(other errors)';
/** Distinct failure messages kept per workflow and hour: bounds the rollup whatever strangers make endpoints answer. */
export const MAX_MESSAGES_PER_HOUR = 20;

const IN_RANGE = (time: string) => `organization_id = $1 AND ${time} >= $2 AND ${time} < $3 AND ($5::bigint[] IS NULL OR workflow_id = ANY ($5::bigint[]))`;
const OF_WORKFLOWS = `organization_id = $1 AND ($5::bigint[] IS NULL OR workflow_id = ANY ($5::bigint[]))`;

/** $1 organization, $2 from, $3 to (whole hours), $4 interval in seconds, $5 workflow ids or null, $6 how many top errors. */
export const REPORT_SQL = `
  SELECT
    (SELECT coalesce(json_agg(s), '[]') FROM (
       SELECT floor(extract(epoch FROM f.at - $2::timestamptz) / $4::int)::int AS slot, f.source,
              sum(f.created)::int AS created, sum(f.closed)::int AS closed, sum(f.errored)::int AS errored, sum(f.reopened)::int AS reopened
       FROM (SELECT hour AS at, source, created, closed, errored, reopened FROM case_report_hours WHERE ${IN_RANGE('hour')}
             UNION ALL
             SELECT at, source, created, closed, errored, reopened FROM report_changes WHERE ${IN_RANGE('at')}) f
       GROUP BY 1, 2) s) AS slots,
    (SELECT coalesce(json_agg(t), '[]') FROM (
       SELECT bucket, sum(cases)::int AS cases
       FROM (SELECT bucket, cases FROM case_close_times WHERE ${IN_RANGE('hour')}
             UNION ALL
             SELECT close_bucket, 1 FROM report_changes WHERE ${IN_RANGE('at')} AND close_bucket IS NOT NULL) b
       GROUP BY 1) t) AS close_times,
    (SELECT coalesce(json_agg(o ORDER BY o.status), '[]') FROM (
       SELECT status, sum(cases)::int AS cases
       FROM (SELECT status, cases FROM case_open_counts WHERE ${OF_WORKFLOWS}
             UNION ALL
             SELECT status_to, 1 FROM report_changes WHERE ${OF_WORKFLOWS} AND status_to IS NOT NULL
             UNION ALL
             SELECT status_from, -1 FROM report_changes WHERE ${OF_WORKFLOWS} AND status_from IS NOT NULL) c
       GROUP BY 1 HAVING sum(cases) > 0) o) AS open_by_status,
    (SELECT coalesce(json_agg(e ORDER BY e.count DESC, e.message), '[]') FROM (
       SELECT message, sum(failures)::int AS count
       FROM (SELECT message, failures FROM case_error_hours WHERE ${IN_RANGE('hour')}
             UNION ALL
             SELECT error, 1 FROM report_changes WHERE ${IN_RANGE('at')} AND error IS NOT NULL) m
       GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT $6) e) AS top_errors`;

/** Any fixed number: the key of the advisory lock that lets one fold run at a time. */
export const FOLD_LOCK = 1_763_870_000;

/**
 * $1 limit. Takes up to $1 logged changes (none when another fold holds the lock: folds of
 * many workers would otherwise upsert the same rows in orders that could deadlock), deletes
 * them and adds them to the rollups, each rollup in key order, in one statement: the changes
 * leave the log in the same commit that counts them. A failure message new to an hour that
 * already keeps MAX_MESSAGES_PER_HOUR is counted as OTHER_ERRORS.
 */
export const FOLD_SQL = `
  WITH lock AS (
    SELECT pg_try_advisory_xact_lock(${FOLD_LOCK}) AS held
  ), batch AS (
    DELETE FROM report_changes
    WHERE ctid = ANY (ARRAY(SELECT ctid FROM report_changes WHERE (SELECT held FROM lock) LIMIT $1))
    RETURNING organization_id, workflow_id, date_trunc('hour', at, 'UTC') AS hour, source,
              created, closed, errored, reopened, close_bucket, status_from, status_to, error
  ), hours AS (
    INSERT INTO case_report_hours AS h (organization_id, hour, workflow_id, source, created, closed, errored, reopened)
    SELECT organization_id, hour, workflow_id, source, sum(created), sum(closed), sum(errored), sum(reopened)
    FROM batch WHERE created + closed + errored + reopened > 0
    GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (organization_id, hour, workflow_id, source) DO UPDATE
    SET created = h.created + EXCLUDED.created, closed = h.closed + EXCLUDED.closed,
        errored = h.errored + EXCLUDED.errored, reopened = h.reopened + EXCLUDED.reopened
  ), closes AS (
    INSERT INTO case_close_times AS t (organization_id, hour, workflow_id, bucket, cases)
    SELECT organization_id, hour, workflow_id, close_bucket, count(*)
    FROM batch WHERE close_bucket IS NOT NULL
    GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (organization_id, hour, workflow_id, bucket) DO UPDATE SET cases = t.cases + EXCLUDED.cases
  ), opens AS (
    INSERT INTO case_open_counts AS o (organization_id, workflow_id, status, cases)
    SELECT organization_id, workflow_id, status, sum(delta)
    FROM (SELECT organization_id, workflow_id, status_to AS status, 1 AS delta FROM batch WHERE status_to IS NOT NULL
          UNION ALL
          SELECT organization_id, workflow_id, status_from, -1 FROM batch WHERE status_from IS NOT NULL) moves
    GROUP BY 1, 2, 3 HAVING sum(delta) <> 0 ORDER BY 1, 2, 3
    ON CONFLICT (organization_id, workflow_id, status) DO UPDATE SET cases = o.cases + EXCLUDED.cases
  ), failures AS (
    SELECT f.organization_id, f.hour, f.workflow_id, f.message, f.n,
           row_number() OVER (PARTITION BY f.organization_id, f.hour, f.workflow_id ORDER BY f.n DESC, f.message) AS rank,
           kept.messages, kept.has_message
    FROM (SELECT organization_id, hour, workflow_id, error AS message, count(*) AS n FROM batch
          WHERE error IS NOT NULL GROUP BY 1, 2, 3, 4) f
    CROSS JOIN LATERAL (
      SELECT count(*) AS messages, coalesce(bool_or(e.message = f.message), false) AS has_message FROM case_error_hours e
      WHERE e.organization_id = f.organization_id AND e.hour = f.hour AND e.workflow_id = f.workflow_id) kept
  ), errors AS (
    INSERT INTO case_error_hours AS e (organization_id, hour, workflow_id, message, failures)
    SELECT organization_id, hour, workflow_id,
           CASE WHEN has_message OR messages + rank <= ${MAX_MESSAGES_PER_HOUR} THEN message ELSE '${OTHER_ERRORS}' END, sum(n)
    FROM failures GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (organization_id, hour, workflow_id, message) DO UPDATE SET failures = e.failures + EXCLUDED.failures
  )
  SELECT count(*)::int AS folded FROM batch`;

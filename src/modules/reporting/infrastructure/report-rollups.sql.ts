import { column } from '../../../shared/database/typed-statement.js';
import { statement } from './persistence.js';
import { CASE_SOURCES, type CaseSource } from '../../cases/domain/case.js';

/**
 * The reporting SQL: the report (rollups plus the changes not folded yet, in one statement and
 * so one snapshot: a fold, itself one statement, is seen entirely or not at all) and the fold.
 * Every read of the report goes through an index that starts with the organization; none reads
 * `cases`. See the CaseReports migration for the rollups' shapes.
 */

/** What a run failure message is counted as once a period of a workflow already keeps MAX_MESSAGES_PER_PERIOD others. */
export const OTHER_ERRORS = '(other errors)';
/** Distinct failure messages kept per workflow and hour, day or month: bounds the rollup whatever strangers make endpoints answer. */
export const MAX_MESSAGES_PER_PERIOD = 20;

/** The rollups' column of the cases created from each source. */
const CREATED_COLUMNS: Record<CaseSource, string> = { API: 'created_api', Webhook: 'created_webhook', Email: 'created_email', Form: 'created_form' };
/** Cases created from extensions' case sources, all in one column: the rollups' shape does not depend on which extensions are loaded. */
const CREATED_BY_EXTENSIONS = 'created_extension';
const COUNTS = [...CASE_SOURCES.map((source) => CREATED_COLUMNS[source]), CREATED_BY_EXTENSIONS, 'closed', 'errored', 'reopened'];

const OF_WORKFLOWS = `($5::bigint[] IS NULL OR workflow_id = ANY ($5::bigint[]))`;
const IN_RANGE = (time: string) => `organization_id = $1 AND ${time} >= $2 AND ${time} < $3 AND ${OF_WORKFLOWS}`;
const sums = (prefix = '') => COUNTS.map((c) => `sum(${prefix}${c})::int AS ${c}`).join(', ');
/** The log's counts as the rollups' columns. */
const LOGGED_COUNTS = [
  ...CASE_SOURCES.map((source) => `CASE WHEN source = '${source}' THEN created ELSE 0 END AS ${CREATED_COLUMNS[source]}`),
  `CASE WHEN source IN (${CASE_SOURCES.map((source) => `'${source}'`).join(', ')}) THEN 0 ELSE created END AS ${CREATED_BY_EXTENSIONS}`,
  'closed',
  'errored',
  'reopened',
].join(', ');

/**
 * The range-wide rollups' rows of the periods that tile the range ($8 grains, $9 starts, $10
 * ends): one index range per span. OFFSET 0 keeps the planner from flattening the subquery into
 * a hash join over every row of the organization, which it prefers when one organization holds
 * most rows.
 */
const IN_SPANS = (table: string, columns: string) => `
  unnest($8::text[], $9::timestamptz[], $10::timestamptz[]) AS span (grain, starts, ends)
  CROSS JOIN LATERAL (
    SELECT ${columns} FROM ${table} r
    WHERE r.organization_id = $1 AND r.grain = span.grain AND r.period >= span.starts AND r.period < span.ends AND ${OF_WORKFLOWS.replaceAll('workflow_id', 'r.workflow_id')}
    OFFSET 0
  ) r`;

/** A slot of REPORT's series (see there). */
export type SlotRow = number[];

/**
 * $1 organization, $2 from, $3 to (whole hours), $4 interval in seconds, $5 workflow ids or null,
 * $6 how many top errors, $7 where the whole days from $2 end (the series reads 24-hour rows
 * before it and hours after it; $2 for a report by hour), $8-$10 the UTC periods tiling the range.
 * A slot is [index, created from each of CASE_SOURCES in order, created from extensions' sources, closed, errored, reopened].
 */
export const REPORT = statement(
  `
  SELECT
    (SELECT coalesce(json_agg(json_build_array(slot, ${COUNTS.join(', ')}) ORDER BY slot), '[]') FROM (
       SELECT floor(date_part('epoch', f.at - $2::timestamptz) / $4::int)::int AS slot, ${sums()}
       FROM (SELECT day_start AS at, ${COUNTS.join(', ')} FROM case_report_days
             WHERE organization_id = $1 AND start_hour = extract(hour FROM $2::timestamptz AT TIME ZONE 'UTC')::smallint
               AND day_start >= $2 AND day_start < $7 AND ${OF_WORKFLOWS}
             UNION ALL
             SELECT hour, ${COUNTS.join(', ')} FROM case_report_hours WHERE organization_id = $1 AND hour >= $7 AND hour < $3 AND ${OF_WORKFLOWS}
             UNION ALL
             SELECT at, ${LOGGED_COUNTS} FROM report_changes WHERE ${IN_RANGE('at')}) f
       GROUP BY 1) s) AS slots,
    (SELECT coalesce(json_agg(json_build_array(bucket, cases)), '[]') FROM (
       SELECT bucket, sum(cases)::int AS cases
       FROM (SELECT r.bucket, r.cases FROM ${IN_SPANS('case_close_times', 'bucket, cases')}
             UNION ALL
             SELECT close_bucket, 1 FROM report_changes WHERE ${IN_RANGE('at')} AND close_bucket IS NOT NULL) b
       GROUP BY 1) t) AS close_times,
    (SELECT coalesce(json_agg(o ORDER BY o.status), '[]') FROM (
       SELECT status, sum(cases)::int AS cases
       FROM (SELECT status, cases FROM case_open_counts WHERE organization_id = $1 AND ${OF_WORKFLOWS}
             UNION ALL
             SELECT status_to, 1 FROM report_changes WHERE organization_id = $1 AND ${OF_WORKFLOWS} AND status_to IS NOT NULL
             UNION ALL
             SELECT status_from, -1 FROM report_changes WHERE organization_id = $1 AND ${OF_WORKFLOWS} AND status_from IS NOT NULL) c
       GROUP BY 1 HAVING sum(cases) > 0) o) AS open_by_status,
    (SELECT coalesce(json_agg(e ORDER BY e.count DESC, e.message), '[]') FROM (
       SELECT message, sum(failures)::int AS count
       FROM (SELECT r.message, r.failures FROM ${IN_SPANS('case_error_messages', 'message, failures')}
             UNION ALL
             SELECT error, 1 FROM report_changes WHERE ${IN_RANGE('at')} AND error IS NOT NULL) m
       GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT $6) e) AS top_errors`,
  {
    slots: column.json<SlotRow[]>(),
    close_times: column.json<[bucket: number, cases: number][]>(),
    open_by_status: column.json<{ status: string; cases: number }[]>(),
    top_errors: column.json<{ message: string; count: number }[]>(),
  },
);

/** Any fixed number: the key of the advisory lock that lets one fold run at a time. */
export const FOLD_LOCK = 1_763_870_000;

const ADD_COUNTS = (table: string) => COUNTS.map((c) => `${c} = ${table}.${c} + EXCLUDED.${c}`).join(', ');

/**
 * $1 limit. Takes up to $1 logged changes (none when another fold holds the lock: folds of
 * many workers would otherwise upsert the same rows in orders that could deadlock), deletes
 * them and adds them to the rollups, each rollup in key order, in one statement: the changes
 * leave the log in the same commit that counts them. A change's counts go to its hour and to
 * the 24 day rows that hold that hour; its time to close and failure go to its UTC hour, day
 * and month. A failure message new to a period that already keeps MAX_MESSAGES_PER_PERIOD is
 * counted as OTHER_ERRORS.
 */
export const FOLD = statement(
  `
  WITH lock AS (
    SELECT pg_try_advisory_xact_lock(${FOLD_LOCK}) AS held
  ), batch AS (
    DELETE FROM report_changes
    WHERE ctid = ANY (ARRAY(SELECT ctid FROM report_changes WHERE (SELECT held FROM lock) LIMIT $1))
    RETURNING organization_id, workflow_id, at, source, created, closed, errored, reopened, close_bucket, status_from, status_to, error
  ), hourly AS (
    SELECT organization_id, date_trunc('hour', at, 'UTC') AS hour, workflow_id, ${sums()}
    FROM (SELECT organization_id, at, workflow_id, ${LOGGED_COUNTS} FROM batch WHERE created + closed + errored + reopened > 0) b
    GROUP BY 1, 2, 3
  ), hours AS (
    INSERT INTO case_report_hours AS h (organization_id, hour, workflow_id, ${COUNTS.join(', ')})
    SELECT * FROM hourly ORDER BY 1, 2, 3
    ON CONFLICT (organization_id, hour, workflow_id) DO UPDATE SET ${ADD_COUNTS('h')}
  ), days AS (
    INSERT INTO case_report_days AS d (organization_id, day_start, workflow_id, ${COUNTS.join(', ')})
    SELECT h.organization_id, day_start, h.workflow_id, ${sums('h.')}
    FROM hourly h CROSS JOIN generate_series(h.hour - interval '23 hours', h.hour, interval '1 hour') AS day_start
    GROUP BY 1, 2, 3 ORDER BY 1, extract(hour FROM day_start AT TIME ZONE 'UTC'), 2, 3
    ON CONFLICT (organization_id, start_hour, day_start, workflow_id) DO UPDATE SET ${ADD_COUNTS('d')}
  ), periods AS (
    SELECT b.organization_id, p.grain, date_trunc(p.grain, b.at, 'UTC') AS period, b.workflow_id, b.close_bucket, b.error
    FROM batch b CROSS JOIN (VALUES ('hour'), ('day'), ('month')) AS p (grain)
    WHERE b.close_bucket IS NOT NULL OR b.error IS NOT NULL
  ), closes AS (
    INSERT INTO case_close_times AS t (organization_id, grain, period, workflow_id, bucket, cases)
    SELECT organization_id, grain, period, workflow_id, close_bucket, count(*)
    FROM periods WHERE close_bucket IS NOT NULL
    GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (organization_id, grain, period, workflow_id, bucket) DO UPDATE SET cases = t.cases + EXCLUDED.cases
  ), opens AS (
    INSERT INTO case_open_counts AS o (organization_id, workflow_id, status, cases)
    SELECT organization_id, workflow_id, status, sum(delta)
    FROM (SELECT organization_id, workflow_id, status_to AS status, 1 AS delta FROM batch WHERE status_to IS NOT NULL
          UNION ALL
          SELECT organization_id, workflow_id, status_from, -1 FROM batch WHERE status_from IS NOT NULL) moves
    GROUP BY 1, 2, 3 HAVING sum(delta) <> 0 ORDER BY 1, 2, 3
    ON CONFLICT (organization_id, workflow_id, status) DO UPDATE SET cases = o.cases + EXCLUDED.cases
  ), failures AS (
    SELECT f.organization_id, f.grain, f.period, f.workflow_id, f.message, f.n,
           row_number() OVER (PARTITION BY f.organization_id, f.grain, f.period, f.workflow_id ORDER BY f.n DESC, f.message) AS rank,
           kept.messages, kept.has_message
    FROM (SELECT organization_id, grain, period, workflow_id, error AS message, count(*) AS n FROM periods
          WHERE error IS NOT NULL GROUP BY 1, 2, 3, 4, 5) f
    CROSS JOIN LATERAL (
      SELECT count(*) AS messages, coalesce(bool_or(e.message = f.message), false) AS has_message FROM case_error_messages e
      WHERE e.organization_id = f.organization_id AND e.grain = f.grain AND e.period = f.period AND e.workflow_id = f.workflow_id) kept
  ), errors AS (
    INSERT INTO case_error_messages AS e (organization_id, grain, period, workflow_id, message, failures)
    SELECT organization_id, grain, period, workflow_id,
           CASE WHEN has_message OR messages + rank <= ${MAX_MESSAGES_PER_PERIOD} THEN message ELSE '${OTHER_ERRORS}' END, sum(n)
    FROM failures GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (organization_id, grain, period, workflow_id, message) DO UPDATE SET failures = e.failures + EXCLUDED.failures
  )
  SELECT count(*)::int AS folded FROM batch`,
  { folded: column.int4 },
);

import { ORGANIZATION_DAYS, purgeCutoff } from '../../../shared/database/purge-sql.js';
import { PARTITION_CHECK } from '../../../shared/database/time-partitions.js';
import { column } from '../../../shared/database/typed-statement.js';
import { statement } from './persistence.js';

/**
 * Finished runs in the retention purge (see the retention module's PurgePass). Each
 * organization's runs are read through the index that starts with the organization, oldest
 * first, from where the last batch stopped and bounded by creation time: a run created after
 * the cutoff cannot have finished before it. The ORDER BY names the index's columns, so the
 * plans stay index walks whatever the statistics say.
 */

const FINISHED_RUN = `state IN ('succeeded', 'failed', 'superseded')`;
export const UNFINISHED_RUN = `state IN ('pending', 'running', 'waiting')`;

/**
 * `, rolled AS (...)`: adds the rows of `purged` (organization_id, workflow_id, mode, created_at,
 * kind 'case' or 'run') to the usage rollups of their UTC hour. Rows are upserted in key order,
 * so two passes adding to the same hours wait for each other instead of deadlocking.
 */
export const ROLL_UP = `, rolled AS (
    INSERT INTO usage_rollups AS u (organization_id, hour, workflow_id, mode, cases, runs)
    SELECT organization_id, date_trunc('hour', created_at, 'UTC'), workflow_id, mode,
           count(*) FILTER (WHERE kind = 'case'), count(*) FILTER (WHERE kind = 'run')
    FROM purged GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (organization_id, hour, workflow_id, mode)
    DO UPDATE SET cases = u.cases + EXCLUDED.cases, runs = u.runs + EXCLUDED.runs
  )`;

const OLD_RUN = (days: string) => `r.created_at < ${purgeCutoff(days)} AND r.${FINISHED_RUN} AND r.finished_at < ${purgeCutoff(days)}`;

/**
 * $1, $2 the organizations and their days: each with a row of `table` (as `alias`) that is `old`
 * for its days, and the creation time of its oldest, read through the (organization_id,
 * created_at) index.
 */
export const organizationsWithOld = (table: string, alias: string, old: (days: string) => string) =>
  statement(
    `
  SELECT o.id, o.days, oldest.created_at AS start FROM ${ORGANIZATION_DAYS}
  CROSS JOIN LATERAL (
    SELECT ${alias}.created_at FROM ${table} ${alias} WHERE ${alias}.organization_id = o.id AND ${old('o.days')}
    ORDER BY ${alias}.organization_id, ${alias}.created_at LIMIT 1) oldest
  ORDER BY o.id`,
    { id: column.int8, days: column.float8, start: column.timestamptz },
  );

/** Each organization with a purgeable run. */
export const ORGANIZATIONS_WITH_OLD_RUNS = organizationsWithOld('workflow_runs', 'r', OLD_RUN);

/** $1 organization, $2 days, $3 from (created_at), $4 limit. Finished runs never change again: only another pass may hold them. */
export const PURGE_RUNS = statement(
  `
  WITH doomed AS (
    SELECT r.id, r.created_at FROM workflow_runs r
    WHERE r.organization_id = $1 AND r.created_at >= $3 AND ${OLD_RUN('$2')}
    ORDER BY r.organization_id, r.created_at LIMIT $4
    FOR UPDATE SKIP LOCKED
  ), gone AS (
    DELETE FROM workflow_runs r USING doomed WHERE r.id = doomed.id
    RETURNING r.organization_id, r.workflow_id, r.mode, r.created_at
  ), purged AS (
    SELECT organization_id, workflow_id, mode, created_at, 'run' AS kind FROM gone
  )${ROLL_UP}
  SELECT (SELECT count(*) FROM gone)::int AS runs, (SELECT count(*) FROM doomed)::int AS taken, (SELECT max(created_at) FROM doomed) AS last`,
  { runs: column.int4, taken: column.int4, last: column.nullable(column.timestamptz) },
);

/** A month partition's runs (its bounds $1, $2), read through the parent: Postgres reads that partition alone. */
const IN_PARTITION = 'r.created_at >= $1 AND r.created_at < $2';

/**
 * $1, $2 a partition's bounds, $3, $4 the organizations and their days: droppable when every run
 * of the partition is old for its organization's days (an organization missing from $3 keeps
 * its runs); how many runs it holds. Only partitions past every organization's days are asked.
 */
export const RUN_PARTITION_CHECK = statement(
  `SELECT count(*) FILTER (WHERE o.days IS NULL OR NOT (${OLD_RUN('o.days')})) = 0 AS droppable, count(*)::int AS rows
  FROM workflow_runs r LEFT JOIN unnest($3::bigint[], $4::float8[]) AS o(id, days) ON o.id = r.organization_id
  WHERE ${IN_PARTITION}`,
  PARTITION_CHECK,
);

/** The partition's runs added to the usage rollups, as PURGE_RUNS adds the runs it deletes. */
export const ROLL_UP_RUN_PARTITION = statement(
  `WITH purged AS (SELECT organization_id, workflow_id, mode, created_at, 'run' AS kind FROM workflow_runs r WHERE ${IN_PARTITION})${ROLL_UP}
  SELECT 1 AS rolled`,
  { rolled: column.int4 },
);

import { lateralLookUp, purgeCutoff } from '../../../shared/database/purge-sql.js';
import { emptyPartitionCheck, PARTITION_CHECK } from '../../../shared/database/time-partitions.js';
import { column } from '../../../shared/database/typed-statement.js';
import { statement, statementBuilder } from './persistence.js';
import type { CaseStatementPart } from '../domain/case-statement-parts.js';
import { caseRowView } from './case-row-view.sql.js';
import { organizationsWithOld, ROLL_UP, UNFINISHED_RUN } from './run-purges.sql.js';

/**
 * The cases' part of the retention purge (see the retention module's PurgePass): Closed cases
 * past their organization's retention, with what they hold, and the keys that expire. Each
 * organization's cases are read through the index that starts with the organization, oldest
 * first, from where the last batch stopped and bounded by creation time: a case created after
 * the cutoff cannot have been closed before it. What other modules hold of a case (its outbox
 * events) comes with their statement parts.
 */

const OLD_CLOSED_CASE = (days: string) => `c.created_at < ${purgeCutoff(days)} AND c.status = 'Closed' AND c.updated_at < ${purgeCutoff(days)}`;

/** Of the organizations keeping closed cases for a limited time, each with a Closed case old enough. */
export const ORGANIZATIONS_WITH_OLD_CLOSED_CASES = organizationsWithOld('cases', 'c', OLD_CLOSED_CASE);

/**
 * $1 organization, $2 days, $3 from (created_at), $4 limit. Locks Closed cases unchanged since
 * the cutoff that nothing keeps (an unfinished run; a delivery still being tried, through the
 * parts' `keepsCase`). Every change of a case locks it first and sets updated_at, and runs and
 * deliveries are only ever started by such a change: a case changed since this statement's
 * snapshot is either skipped (still locked) or no longer matches when its new version is checked.
 */
function lockClosedCasesSql(parts: readonly CaseStatementPart[]): string {
  const keeping = [
    { alias: 'unfinished_run', fromWhere: `FROM workflow_runs r WHERE r.case_id = c.id AND r.${UNFINISHED_RUN}` },
    ...parts.flatMap((part) => (part.keepsCase ? [{ alias: `kept_by_${part.name}`, fromWhere: part.keepsCase(caseRowView('c')) }] : [])),
  ];
  return `
  SELECT c.id, c.created_at FROM cases c
  ${keeping.map((k) => lateralLookUp(k.alias, k.fromWhere)).join('\n  ')}
  WHERE c.organization_id = $1 AND c.created_at >= $3 AND ${OLD_CLOSED_CASE('$2')}
    ${keeping.map((k) => `AND ${k.alias}.found IS NULL`).join(' ')}
  ORDER BY c.organization_id, c.created_at LIMIT $4
  FOR UPDATE OF c SKIP LOCKED`;
}

/** Declared without the parts, which their own check covers (case-statement-parts). */
export const lockClosedCases = statementBuilder(lockClosedCasesSql, { id: column.int8, created_at: column.timestamptz }, [[[]]]);

/**
 * $1 locked case ids of the organization $2, what other modules hold of them gone first: the
 * cases and all they hold (merge pointers from and to them too), their own and their runs'
 * counts rolled up.
 * Each workflow's highest feed position among the purged cases is recorded under the workflow's
 * next purge number (docs/change-feed.md): a feed cursor read before this purge and below that
 * position may have missed a purged case's last change. The count's row stays locked until this
 * transaction commits, so purges of a workflow commit in the order of their numbers; workflows in
 * id order, so two purges of one organization never wait on each other in a cycle.
 */
export const DELETE_CASES = statement(
  `
  WITH timeline AS (
    DELETE FROM case_events WHERE organization_id = $2 AND case_id = ANY($1::bigint[]) RETURNING 1
  ), runs AS (
    DELETE FROM workflow_runs WHERE case_id = ANY($1::bigint[])
    RETURNING organization_id, workflow_id, mode, created_at
  ), keys AS (
    DELETE FROM idempotency_keys WHERE case_id = ANY($1::bigint[]) RETURNING 1
  ), dedup_keys AS (
    DELETE FROM webhook_dedup_keys WHERE case_id = ANY($1::bigint[]) RETURNING 1
  ), merges AS (
    DELETE FROM case_merges WHERE organization_id = $2 AND (merged_case_id = ANY($1::bigint[]) OR into_case_id = ANY($1::bigint[]))
  ), gone AS (
    DELETE FROM cases WHERE id = ANY($1::bigint[])
    RETURNING id, organization_id, workflow_id, mode, created_at, change_xid
  ), purge_counts AS (
    INSERT INTO case_feed_purge_counts AS e (organization_id, workflow_id, purges)
    SELECT DISTINCT organization_id, workflow_id, 1 FROM gone ORDER BY workflow_id
    ON CONFLICT (organization_id, workflow_id) DO UPDATE SET purges = e.purges + 1
    RETURNING workflow_id, purges
  ), feed_purges AS (
    INSERT INTO case_feed_purges AS p (workflow_id, purge, purge_xid, change_xid, case_id)
    SELECT DISTINCT ON (g.workflow_id) g.workflow_id, n.purges, pg_current_xact_id(), g.change_xid, g.id
    FROM gone g JOIN purge_counts n USING (workflow_id) ORDER BY g.workflow_id, g.change_xid DESC, g.id DESC
    ON CONFLICT (workflow_id, purge_xid) DO UPDATE SET change_xid = EXCLUDED.change_xid, case_id = EXCLUDED.case_id
    WHERE (p.change_xid, p.case_id) < (EXCLUDED.change_xid, EXCLUDED.case_id)
  ), purged AS (
    SELECT organization_id, workflow_id, mode, created_at, 'case' AS kind FROM gone
    UNION ALL SELECT organization_id, workflow_id, mode, created_at, 'run' FROM runs
  )${ROLL_UP}
  SELECT (SELECT count(*) FROM gone)::int AS cases, (SELECT count(*) FROM timeline)::int AS case_events,
         (SELECT count(*) FROM runs)::int AS runs, (SELECT count(*) FROM keys)::int AS idempotency_keys,
         (SELECT count(*) FROM dedup_keys)::int AS webhook_dedup_keys`,
  { cases: column.int4, case_events: column.int4, runs: column.int4, idempotency_keys: column.int4, webhook_dedup_keys: column.int4 },
);

/** The keys that expire: a table with a `case_id` and a `created_at`, the columns of its primary key, and how long a key lives. */
interface ExpiringKeys {
  table: 'idempotency_keys' | 'webhook_dedup_keys';
  primaryKey: readonly string[];
  lifetime: string;
}

/** Idempotency-Key claims hold 24 hours. */
const IDEMPOTENCY_KEYS: ExpiringKeys = { table: 'idempotency_keys', primaryKey: ['organization_id', 'key'], lifetime: `interval '24 hours'` };

/**
 * Webhook delivery keys hold their workflow's window, read from the version in force when a
 * delivery comes; past the longest window (7 days) no version can still use one.
 */
const WEBHOOK_DEDUP_KEYS: ExpiringKeys = { table: 'webhook_dedup_keys', primaryKey: ['workflow_id', 'key_hash'], lifetime: `interval '7 days'` };

/**
 * $1 after (case id), $2 limit. Keys are walked in the order of the cases they point at, which
 * is the order they were created in (a key taken over once expired points at the new case): a
 * batch reads the next $2 keys only, never the live keys behind the expired ones. Returns the
 * count of deleted keys as `purged`.
 */
function purgeExpiredKeys({ table, primaryKey, lifetime }: ExpiringKeys) {
  const expired = `created_at < now() - ${lifetime}`;
  return statement(
    `
  WITH ahead AS (
    SELECT case_id, created_at FROM ${table} WHERE case_id > $1 ORDER BY case_id LIMIT $2
  ), doomed AS (
    SELECT ${primaryKey.map((column) => `k.${column}`).join(', ')} FROM ${table} k
    WHERE k.case_id > $1 AND k.case_id <= (SELECT max(case_id) FROM ahead) AND k.${expired}
    ORDER BY k.case_id
    FOR UPDATE SKIP LOCKED
  ), gone AS (
    DELETE FROM ${table} k USING doomed
    WHERE ${primaryKey.map((column) => `k.${column} = doomed.${column}`).join(' AND ')} RETURNING 1
  )
  SELECT (SELECT count(*) FROM gone)::int AS purged, (SELECT count(*) FROM ahead)::int AS seen,
         (SELECT max(case_id) FROM ahead) AS last, (SELECT bool_and(${expired}) FROM ahead) AS all_expired`,
    { purged: column.int4, seen: column.int4, last: column.nullable(column.int8), all_expired: column.nullable(column.bool) },
  );
}

/** The statement purging each kind of expiring key. */
export const PURGE_EXPIRED_KEYS = { idempotency_keys: purgeExpiredKeys(IDEMPOTENCY_KEYS), webhook_dedup_keys: purgeExpiredKeys(WEBHOOK_DEDUP_KEYS) };

/** A past month of the timeline, dropped once the closed cases' purge emptied it. */
export const EMPTY_TIMELINE_PARTITION = statement(emptyPartitionCheck('case_events'), PARTITION_CHECK);

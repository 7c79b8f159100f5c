import { DIGEST_SENDS_KEPT_MS } from '../../reporting/domain/digest.js';

/**
 * The purge's SQL. Owners (organizations, subscriptions) are found first, one index probe each,
 * which also says where the owner's first purgeable row is. Each owner's rows are then read
 * through an index that starts with the owner, oldest first, from where the last batch stopped
 * and bounded by creation time: a row created after the cutoff cannot have finished (or been
 * closed) before it. A pass therefore reads only old rows, each kept one (an unfinished run, a
 * case that is not Closed) about once, whatever the size of the table and whatever other
 * organizations keep. The ORDER BY names the index's columns, and look-ups that must not be
 * turned into a hash join of a whole table are LIMIT 1 lateral joins: the plans stay index
 * walks whatever the statistics say. `$days` are decimal days; cutoffs are on the database's clock.
 */

const cutoff = (days: string) => `now() - ${days}::float8 * interval '1 day'`;

const FINISHED_RUN = `state IN ('succeeded', 'failed', 'superseded')`;
const UNFINISHED_RUN = `state IN ('pending', 'running', 'waiting')`;

/** The organization's days for a setting: its override, or the default ($1). */
const organizationDays = (column: string) => `coalesce(p.${column}::float8, $1::float8)`;
const WITH_OVERRIDES = 'organizations o LEFT JOIN organization_retention p ON p.organization_id = o.id';

/** `LEFT JOIN LATERAL`: `<alias>.found` is null when `from_where` (FROM ... WHERE ...) finds no row. */
const lookUp = (alias: string, fromWhere: string) => `LEFT JOIN LATERAL (SELECT true AS found ${fromWhere} LIMIT 1) ${alias} ON true`;

/**
 * `, rolled AS (...)`: adds the rows of `purged` (organization_id, workflow_id, mode, created_at,
 * kind 'case' or 'run') to the usage rollups of their UTC hour. Rows are upserted in key order,
 * so two passes adding to the same hours wait for each other instead of deadlocking.
 */
const ROLL_UP = `, rolled AS (
    INSERT INTO usage_rollups AS u (organization_id, hour, workflow_id, mode, cases, runs)
    SELECT organization_id, date_trunc('hour', created_at, 'UTC'), workflow_id, mode,
           count(*) FILTER (WHERE kind = 'case'), count(*) FILTER (WHERE kind = 'run')
    FROM purged GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (organization_id, hour, workflow_id, mode)
    DO UPDATE SET cases = u.cases + EXCLUDED.cases, runs = u.runs + EXCLUDED.runs
  )`;

const OLD_RUN = (days: string) => `r.created_at < ${cutoff(days)} AND r.${FINISHED_RUN} AND r.finished_at < ${cutoff(days)}`;

/** $1 default days: each organization with a purgeable run, its days and the creation time of its oldest. */
export const ORGANIZATIONS_WITH_OLD_RUNS_SQL = `
  SELECT o.id, ${organizationDays('runs_days')} AS days, oldest.created_at AS start FROM ${WITH_OVERRIDES}
  CROSS JOIN LATERAL (
    SELECT r.created_at FROM workflow_runs r WHERE r.organization_id = o.id AND ${OLD_RUN(organizationDays('runs_days'))}
    ORDER BY r.organization_id, r.created_at LIMIT 1) oldest
  ORDER BY o.id`;

/** $1 organization, $2 days, $3 from (created_at), $4 limit. Finished runs never change again: only another pass may hold them. */
export const PURGE_RUNS_SQL = `
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
  SELECT (SELECT count(*) FROM gone)::int AS runs, (SELECT count(*) FROM doomed)::int AS taken, (SELECT max(created_at) FROM doomed) AS last`;

const OLD_CLOSED_CASE = (days: string) => `c.created_at < ${cutoff(days)} AND c.status = 'Closed' AND c.updated_at < ${cutoff(days)}`;

/** $1 default days: organizations that do not keep closed cases forever, with a Closed case old enough, and its creation time. */
export const ORGANIZATIONS_WITH_OLD_CLOSED_CASES_SQL = `
  SELECT o.id, ${organizationDays('closed_cases_days')} AS days, oldest.created_at AS start FROM ${WITH_OVERRIDES}
  CROSS JOIN LATERAL (
    SELECT c.created_at FROM cases c WHERE c.organization_id = o.id AND ${OLD_CLOSED_CASE(organizationDays('closed_cases_days'))}
    ORDER BY c.organization_id, c.created_at LIMIT 1) oldest
  WHERE ${organizationDays('closed_cases_days')} > 0
  ORDER BY o.id`;

/**
 * $1 organization, $2 days, $3 from (created_at), $4 limit. Locks Closed cases unchanged since
 * the cutoff, with no unfinished run and no delivery still being tried. Every change of a case
 * locks it first and sets updated_at, and runs and deliveries are only ever started by such a
 * change: a case changed since this statement's snapshot is either skipped (still locked) or
 * no longer matches when its new version is checked.
 */
export const LOCK_CLOSED_CASES_SQL = `
  SELECT c.id, c.created_at FROM cases c
  ${lookUp('unfinished_run', `FROM workflow_runs r WHERE r.case_id = c.id AND r.${UNFINISHED_RUN}`)}
  ${lookUp('pending_delivery', `FROM outbox_events e JOIN event_deliveries d ON d.event_id = e.id WHERE e.case_id = c.id AND d.state = 'pending'`)}
  WHERE c.organization_id = $1 AND c.created_at >= $3 AND ${OLD_CLOSED_CASE('$2')}
    AND unfinished_run.found IS NULL AND pending_delivery.found IS NULL
  ORDER BY c.organization_id, c.created_at LIMIT $4
  FOR UPDATE OF c SKIP LOCKED`;

/** $1 case ids. In id order, waiting for a delivery purge that holds one (it never waits on cases). */
export const LOCK_CASE_EVENTS_SQL = `SELECT id FROM outbox_events WHERE case_id = ANY($1::bigint[]) ORDER BY id FOR UPDATE`;

/**
 * $1 locked case ids, their outbox events already gone: the cases and all they hold, their own and their runs' counts rolled up.
 * Each workflow's highest feed position among the purged cases is recorded with this
 * transaction's id (docs/change-feed.md): a feed cursor read before this purge and below that
 * position may have missed a purged case's last change.
 */
export const DELETE_CASES_SQL = `
  WITH timeline AS (
    DELETE FROM case_events WHERE case_id = ANY($1::bigint[]) RETURNING 1
  ), runs AS (
    DELETE FROM workflow_runs WHERE case_id = ANY($1::bigint[])
    RETURNING organization_id, workflow_id, mode, created_at
  ), keys AS (
    DELETE FROM idempotency_keys WHERE case_id = ANY($1::bigint[]) RETURNING 1
  ), dedup_keys AS (
    DELETE FROM webhook_dedup_keys WHERE case_id = ANY($1::bigint[]) RETURNING 1
  ), gone AS (
    DELETE FROM cases WHERE id = ANY($1::bigint[])
    RETURNING id, organization_id, workflow_id, mode, created_at, change_xid
  ), feed_purges AS (
    INSERT INTO case_feed_purges AS p (workflow_id, purge_xid, change_xid, case_id)
    SELECT DISTINCT ON (workflow_id) workflow_id, pg_current_xact_id(), change_xid, id FROM gone ORDER BY workflow_id, change_xid DESC, id DESC
    ON CONFLICT (workflow_id, purge_xid) DO UPDATE SET change_xid = EXCLUDED.change_xid, case_id = EXCLUDED.case_id
    WHERE (p.change_xid, p.case_id) < (EXCLUDED.change_xid, EXCLUDED.case_id)
  ), purged AS (
    SELECT organization_id, workflow_id, mode, created_at, 'case' AS kind FROM gone
    UNION ALL SELECT organization_id, workflow_id, mode, created_at, 'run' FROM runs
  )${ROLL_UP}
  SELECT (SELECT count(*) FROM gone)::int AS cases, (SELECT count(*) FROM timeline)::int AS case_events,
         (SELECT count(*) FROM runs)::int AS runs, (SELECT count(*) FROM keys)::int AS idempotency_keys,
         (SELECT count(*) FROM dedup_keys)::int AS webhook_dedup_keys`;

/** $1 locked outbox event ids: the events with their deliveries and attempts. */
export const DELETE_OUTBOX_EVENTS_SQL = `
  WITH attempts AS (
    DELETE FROM delivery_attempts
    WHERE delivery_id = ANY(ARRAY(SELECT id FROM event_deliveries WHERE event_id = ANY($1::bigint[]))) RETURNING 1
  ), deliveries AS (
    DELETE FROM event_deliveries WHERE event_id = ANY($1::bigint[]) RETURNING 1
  ), events AS (
    DELETE FROM outbox_events WHERE id = ANY($1::bigint[]) RETURNING 1
  )
  SELECT (SELECT count(*) FROM events)::int AS outbox_events, (SELECT count(*) FROM deliveries)::int AS deliveries,
         (SELECT count(*) FROM attempts)::int AS delivery_attempts`;

/**
 * A subscription's deliveries after an id, read as a range of the (subscription_id, id) index.
 * Said with `subscription_id = x`, the planner may walk the primary key instead and filter, which
 * reads the whole table for a subscription with no delivery left in that range.
 */
const AFTER_IN_SUBSCRIPTION = (subscription: string, afterId: string) => `(d.subscription_id, d.id) > (${subscription}, ${afterId})`;

/** $1 default days: subscriptions whose oldest delivery was created before their organization's cutoff. */
export const SUBSCRIPTIONS_WITH_OLD_DELIVERIES_SQL = `
  SELECT s.id, ${organizationDays('deliveries_days')} AS days, 0 AS start
  FROM subscriptions s LEFT JOIN organization_retention p ON p.organization_id = s.organization_id
  CROSS JOIN LATERAL (
    SELECT d.subscription_id, d.created_at FROM event_deliveries d
    WHERE ${AFTER_IN_SUBSCRIPTION('s.id', '0')} ORDER BY d.subscription_id, d.id LIMIT 1) oldest
  WHERE oldest.subscription_id = s.id AND oldest.created_at < ${cutoff(organizationDays('deliveries_days'))}
  ORDER BY s.id`;

/**
 * $1 subscription, $2 days, $3 after id, $4 limit: the subscription's next deliveries in id
 * (creation) order, each saying whether it was created before the cutoff and ended before it.
 */
export const DELIVERY_WINDOW_SQL = `
  SELECT id, event_id, created_at < ${cutoff('$2')} AS old, state <> 'pending' AND finished_at < ${cutoff('$2')} AS ended_long_ago
  FROM (SELECT d.* FROM event_deliveries d WHERE ${AFTER_IN_SUBSCRIPTION('$1::bigint', '$3::bigint')} ORDER BY d.subscription_id, d.id LIMIT $4) ahead
  WHERE subscription_id = $1`;

/**
 * $1 event ids, $2 days: those whose every delivery (to any subscription, all of one
 * organization) ended before the cutoff, locked in id order. An ended delivery never changes
 * again, so what the snapshot shows ended stays so; an event another pass holds is skipped.
 */
export const LOCK_ENDED_EVENTS_SQL = `
  SELECT e.id FROM outbox_events e
  ${lookUp('unended', `FROM event_deliveries d WHERE d.event_id = e.id AND (d.state = 'pending' OR d.finished_at >= ${cutoff('$2')})`)}
  WHERE e.id = ANY($1::bigint[]) AND unended.found IS NULL
  ORDER BY e.id
  FOR UPDATE OF e SKIP LOCKED`;

/** The keys that expire: a table with a `case_id` and a `created_at`, the columns of its primary key, and how long a key lives. */
export interface ExpiringKeys {
  table: 'idempotency_keys' | 'webhook_dedup_keys';
  primaryKey: readonly string[];
  lifetime: string;
}

/** Idempotency-Key claims hold 24 hours. */
export const IDEMPOTENCY_KEYS: ExpiringKeys = { table: 'idempotency_keys', primaryKey: ['organization_id', 'key'], lifetime: `interval '24 hours'` };

/**
 * Webhook delivery keys hold their workflow's window, read from the version in force when a
 * delivery comes; past the longest window (7 days) no version can still use one.
 */
export const WEBHOOK_DEDUP_KEYS: ExpiringKeys = { table: 'webhook_dedup_keys', primaryKey: ['workflow_id', 'key_hash'], lifetime: `interval '7 days'` };

/**
 * $1 after (case id), $2 limit. Keys are walked in the order of the cases they point at, which
 * is the order they were created in (a key taken over once expired points at the new case): a
 * batch reads the next $2 keys only, never the live keys behind the expired ones. Returns the
 * count of deleted keys as `purged`.
 */
export function purgeExpiredKeysSql({ table, primaryKey, lifetime }: ExpiringKeys): string {
  const expired = `created_at < now() - ${lifetime}`;
  return `
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
         (SELECT max(case_id) FROM ahead) AS last, (SELECT bool_and(${expired}) FROM ahead) AS all_expired`;
}

/**
 * $1 limit. Digest sends done with, whose period ended more than DIGEST_SENDS_KEPT_MS ago: the
 * scheduler never claims a period that old again, so none is sent twice for lack of its row
 * (manual sends too, by their period's end). Read oldest first through the partial index of
 * sends done with.
 */
export const PURGE_DIGEST_SENDS_SQL = `
  WITH doomed AS (
    SELECT id FROM digest_sends
    WHERE state <> 'sending' AND period_end < now() - ${DIGEST_SENDS_KEPT_MS} * interval '1 millisecond'
    ORDER BY period_end LIMIT $1
    FOR UPDATE SKIP LOCKED
  ), gone AS (
    DELETE FROM digest_sends s USING doomed WHERE s.id = doomed.id RETURNING 1
  )
  SELECT (SELECT count(*) FROM gone)::int AS purged`;

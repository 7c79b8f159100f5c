import type { CaseRowView, PurgedRowCounts, SqlQuery } from '../../cases/domain/case-statement-parts.js';
import { lateralLookUp, ORGANIZATION_DAYS, purgeCutoff } from '../../../shared/database/purge-sql.js';
import { emptyPartitionCheck, PARTITION_CHECK } from '../../../shared/database/time-partitions.js';
import { column } from '../../../shared/database/typed-statement.js';
import { statement } from './persistence.js';

/** The outbox's part of the retention purge (see the retention module's PurgePass). */

/** $1 case ids. In id order, waiting for a delivery purge that holds one (it never waits on cases). */
const LOCK_CASE_EVENTS = statement(`SELECT id FROM outbox_events WHERE case_id = ANY($1::bigint[]) ORDER BY id FOR UPDATE`, { id: column.int8 });

/** $1 locked outbox event ids: the events with their deliveries and attempts. */
const DELETE_OUTBOX_EVENTS = statement(
  `
  WITH attempts AS (
    DELETE FROM delivery_attempts
    WHERE delivery_id = ANY(ARRAY(SELECT id FROM event_deliveries WHERE event_id = ANY($1::bigint[]))) RETURNING 1
  ), deliveries AS (
    DELETE FROM event_deliveries WHERE event_id = ANY($1::bigint[]) RETURNING 1
  ), events AS (
    DELETE FROM outbox_events WHERE id = ANY($1::bigint[]) RETURNING 1
  )
  SELECT (SELECT count(*) FROM events)::int AS outbox_events, (SELECT count(*) FROM deliveries)::int AS deliveries,
         (SELECT count(*) FROM attempts)::int AS delivery_attempts`,
  { outbox_events: column.int4, deliveries: column.int4, delivery_attempts: column.int4 },
);

/**
 * A subscription's deliveries after an id, read as a range of the (subscription_id, id) index.
 * Said with `subscription_id = x`, the planner may walk the primary key instead and filter, which
 * reads the whole table for a subscription with no delivery left in that range.
 */
const AFTER_IN_SUBSCRIPTION = (subscription: string, afterId: string) => `(d.subscription_id, d.id) > (${subscription}, ${afterId})`;

/** $1, $2 the organizations and their days: subscriptions whose oldest delivery was created before their organization's cutoff. */
export const SUBSCRIPTIONS_WITH_OLD_DELIVERIES = statement(
  `
  SELECT s.id, o.days, 0 AS start
  FROM subscriptions s JOIN ${ORGANIZATION_DAYS} ON o.id = s.organization_id
  CROSS JOIN LATERAL (
    SELECT d.subscription_id, d.created_at FROM event_deliveries d
    WHERE ${AFTER_IN_SUBSCRIPTION('s.id', '0')} ORDER BY d.subscription_id, d.id LIMIT 1) oldest
  WHERE oldest.subscription_id = s.id AND oldest.created_at < ${purgeCutoff('o.days')}
  ORDER BY s.id`,
  { id: column.int8, days: column.float8, start: column.int4 },
);

/**
 * $1 subscription, $2 days, $3 after id, $4 limit: the subscription's next deliveries in id
 * (creation) order, each saying whether it was created before the cutoff and ended before it.
 */
export const DELIVERY_WINDOW = statement(
  `
  SELECT id, event_id, created_at < ${purgeCutoff('$2')} AS old, state <> 'pending' AND finished_at < ${purgeCutoff('$2')} AS ended_long_ago
  FROM (SELECT d.* FROM event_deliveries d WHERE ${AFTER_IN_SUBSCRIPTION('$1::bigint', '$3::bigint')} ORDER BY d.subscription_id, d.id LIMIT $4) ahead
  WHERE subscription_id = $1`,
  { id: column.int8, event_id: column.int8, old: column.bool, ended_long_ago: column.bool },
);

/**
 * $1 event ids, $2 days: those whose every delivery (to any subscription, all of one
 * organization) ended before the cutoff, locked in id order. An ended delivery never changes
 * again, so what the snapshot shows ended stays so; an event another pass holds is skipped.
 */
export const LOCK_ENDED_EVENTS = statement(
  `
  SELECT e.id FROM outbox_events e
  ${lateralLookUp('unended', `FROM event_deliveries d WHERE d.event_id = e.id AND (d.state = 'pending' OR d.finished_at >= ${purgeCutoff('$2')})`)}
  WHERE e.id = ANY($1::bigint[]) AND unended.found IS NULL
  ORDER BY e.id
  FOR UPDATE OF e SKIP LOCKED`,
  { id: column.int8 },
);

/** Deletes locked outbox events with their deliveries and attempts. */
export async function deleteOutboxEvents(query: SqlQuery, events: readonly number[]): Promise<PurgedRowCounts> {
  const [purged] = await query(DELETE_OUTBOX_EVENTS, [events]);
  return purged!;
}

/** What a closed case being purged holds in the outbox: its events, once locked, with their deliveries. */
export async function purgeCaseEvents(query: SqlQuery, caseIds: readonly number[]): Promise<PurgedRowCounts> {
  const events = (await query(LOCK_CASE_EVENTS, [caseIds])).map((row) => Number(row.id));
  return events.length ? deleteOutboxEvents(query, events) : {};
}

/** A delivery still being tried keeps its case from the purge. */
export const pendingDeliveryOf = (c: CaseRowView) =>
  `FROM outbox_events e JOIN event_deliveries d ON d.event_id = e.id WHERE e.case_id = ${c.id} AND d.state = 'pending'`;

/** A past month of deliveries, dropped once the purge of their events emptied it. */
export const EMPTY_DELIVERY_PARTITION = statement(emptyPartitionCheck('event_deliveries'), PARTITION_CHECK);

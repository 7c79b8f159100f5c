import type { EntityManager } from 'typeorm';
import type { TransactionRunner } from './transaction.js';
import { firstRowOf, rowsOf, statement, statementBuilder } from './persistence.js';
import { runStatement } from './run-statement.js';
import { column, type Statement } from './typed-statement.js';
import { withoutStatementTimeout } from './without-statement-timeout.js';

/**
 * The tables that only grow, partitioned by month of their time column (docs/deploying.md,
 * "Time partitions"). Each has a default partition, so an insert never fails for want of a
 * month. Each table's owner module keeps the current month and the next MONTHS_AHEAD created
 * (createMonthsAhead, which the worker's schedule asks of every owner through retention's
 * ports), since only the owner writes its table, DDL included.
 */
export type TimePartitionedTable = 'case_events' | 'workflow_runs' | 'event_deliveries' | 'audit_entries';

export const MONTHS_AHEAD = 3;

/**
 * $1 parent, $2 its time column, $3 months ahead, $4 the first month to create: creates the
 * missing partitions from the UTC month of $4 to the current one plus $3 (a month is a calendar
 * month of UTC; the series steps in UTC whatever the session's time zone).
 */
export const ENSURE_MONTHS_AHEAD = statement(
  `SELECT count(*) FILTER (WHERE ensure_month_partition($1, $2, m AT TIME ZONE 'UTC'))::int AS created
  FROM generate_series(date_trunc('month', $4::timestamptz AT TIME ZONE 'UTC'), date_trunc('month', now() AT TIME ZONE 'UTC') + $3 * interval '1 month', interval '1 month') AS m`,
  { created: column.int4 },
);

/** Held by whoever creates or drops partitions, so two workers do it one after the other. */
export const PARTITION_LOCK = statement(`SELECT pg_advisory_xact_lock(hashtextextended('time-partitions', 0))`, { pg_advisory_xact_lock: column.void });

/**
 * Creates the missing month partitions of `table` from the month of `now` to MONTHS_AHEAD
 * ahead, under the partition lock so that of several workers asking at once one creates each
 * (ensure_month_partition, a function of the migration 1765200000000); how many it created.
 * Without the statement timeout: attaching a month moves the rows the default partition took
 * for it, however many.
 */
export function createMonthsAhead(transactions: TransactionRunner, table: TimePartitionedTable, timeColumn: 'created_at' | 'at', now: Date): Promise<number> {
  return withoutStatementTimeout(transactions, async (m) => {
    await rowsOf(m, PARTITION_LOCK);
    return (await firstRowOf(m, ENSURE_MONTHS_AHEAD, [table, timeColumn, MONTHS_AHEAD, now]))!.created;
  });
}

/**
 * Taken shared by the batched purges that roll up what they delete (runs, closed cases), so a
 * partition dropped with its rows rolled up cannot lose a row to one of them in between.
 */
const PARTITION_DROP_GUARD = statement(`SELECT pg_advisory_xact_lock_shared(hashtextextended('time-partitions', 0))`, {
  pg_advisory_xact_lock_shared: column.void,
});

/** Holds off partition drops until `m`'s transaction ends: a batched purge that rolls up what it deletes takes it first (PARTITION_DROP_GUARD). */
export async function guardAgainstPartitionDrops(m: EntityManager): Promise<void> {
  await rowsOf(m, PARTITION_DROP_GUARD);
}

/**
 * $1 the parent: each of its partitions but the default, with its bounds (the legacy partition,
 * the table as it was before the migration, runs from MINVALUE: `-infinity` here), oldest first.
 */
const MONTH_PARTITIONS = statement(
  `SELECT name, coalesce((regexp_match(bound, 'FROM \\(''([^'']+)''\\)'))[1]::timestamptz, '-infinity') AS lower,
    (regexp_match(bound, 'TO \\(''([^'']+)''\\)'))[1]::timestamptz AS upper
  FROM (SELECT c.relname::text AS name, pg_get_expr(c.relpartbound, c.oid) AS bound FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = $1::regclass) p
  WHERE bound <> 'DEFAULT'
  ORDER BY upper`,
  { name: column.text, lower: column.timestamptz, upper: column.timestamptz },
);

/** How long a partition drop waits for the parent's lock before it gives up until the next pass (writers queue behind it meanwhile). */
const DETACH_LOCK_TIMEOUT = statement(`SET LOCAL lock_timeout = '500ms'`);

// Partition names come from the catalog (MONTH_PARTITIONS), never from a request.
const detachPartition = statementBuilder((table: TimePartitionedTable, partition: string) => `ALTER TABLE ${table} DETACH PARTITION ${partition}`, {}, [
  ['case_events', 'case_events_default'],
]);
const dropTable = statementBuilder((partition: string) => `DROP TABLE ${partition}`, {}, [['case_events_default']]);

/** What a droppable partition's check answers. */
export const PARTITION_CHECK = { droppable: column.bool, rows: column.int4 };

/**
 * For a table whose rows go one by one with what owns them (the timeline with its case,
 * deliveries with their event): the text of its owner's check, a month dropped once they all went.
 */
export const emptyPartitionCheck = (table: 'case_events' | 'event_deliveries') =>
  `SELECT NOT EXISTS (SELECT 1 FROM ${table} WHERE created_at >= $1 AND created_at < $2) AS droppable, 0 AS rows`;

/** A month partition whose every row is past retention, declared by the table's owner. */
export interface PartitionDrop {
  table: TimePartitionedTable;
  /**
   * Over the parent, $1 and $2 the partition's bounds (Postgres reads that partition alone), then
   * `parameters`: whether no row in between is to be kept, and how many there are.
   */
  check: Statement<{ droppable: boolean; rows: number }>;
  parameters: unknown[];
  /** The latest upper bound a partition may have to be looked at. */
  before: Date;
  /** $1, $2 the bounds: what the partition's rows leave behind once dropped (the runs' usage rollups). */
  rollUp?: Statement<unknown>;
}

/**
 * Detaches and drops the partitions of `drop.table` up to `drop.before` whose check says they
 * hold nothing to keep, each in a transaction of its own: under the exclusive partition lock,
 * the check (a read of the partition, no row locks), the roll-up, then a plain DETACH (ACCESS
 * EXCLUSIVE on the parent from there to the commit, milliseconds; CONCURRENTLY cannot share a
 * transaction with the roll-up) and the DROP. Returns how many rows went.
 */
export async function dropPartitions(transactions: TransactionRunner, drop: PartitionDrop): Promise<number> {
  const inTransaction = <T>(work: (m: EntityManager) => Promise<T>) => withoutStatementTimeout(transactions, work);
  const candidates = await inTransaction((m) => rowsOf(m, MONTH_PARTITIONS, [drop.table]));
  let dropped = 0;
  for (const { name, lower, upper } of candidates.filter((p) => p.upper.getTime() <= drop.before.getTime())) {
    const rows = await inTransaction(async (m) => {
      await rowsOf(m, PARTITION_LOCK);
      const [check] = await runStatement(m, drop.check, [lower, upper, ...drop.parameters]);
      if (!check!.droppable) return 0;
      if (drop.rollUp) await runStatement(m, drop.rollUp, [lower, upper]);
      await rowsOf(m, DETACH_LOCK_TIMEOUT);
      await rowsOf(m, detachPartition(drop.table, name));
      await rowsOf(m, dropTable(name));
      return check!.rows;
    }).catch((err: { code?: string }) => {
      if (err.code === '55P03') return 0;
      throw err;
    });
    dropped += rows;
  }
  return dropped;
}

/**
 * The partitions of `drop.table` that end before every organization's days, each dropped when
 * `drop.check` (the organizations its $3, their days its $4) finds nothing to keep in it; how
 * many rows went.
 */
export function dropPartitionsPastRetention(transactions: TransactionRunner, drop: Pick<PartitionDrop, 'table' | 'check' | 'rollUp'>, organizations: { ids: number[]; days: number[] }): Promise<number> {
  if (!organizations.ids.length) return Promise.resolve(0);
  const before = new Date(Date.now() - Math.max(...organizations.days) * 86_400_000);
  return dropPartitions(transactions, { ...drop, parameters: [organizations.ids, organizations.days], before });
}

/** The start of the current UTC month: a month that ended, and can be empty for good. */
export const startOfMonth = (now = new Date()) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));

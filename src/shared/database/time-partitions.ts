/**
 * The tables that only grow, partitioned by month of their time column (docs/deploying.md,
 * "Time partitions"). Each has a default partition, so an insert never fails for want of a
 * month, and the worker keeps the current month and the next MONTHS_AHEAD created
 * (ensure_month_partition, a function of the migration 1764700000000).
 */
export const TIME_PARTITIONED = [
  { table: 'case_events', column: 'created_at' },
  { table: 'workflow_runs', column: 'created_at' },
  { table: 'event_deliveries', column: 'created_at' },
  { table: 'audit_entries', column: 'at' },
] as const;

export type TimePartitionedTable = (typeof TIME_PARTITIONED)[number]['table'];

export const MONTHS_AHEAD = 3;

/**
 * $1 parent, $2 its time column, $3 months ahead, $4 the first month to create: creates the
 * missing partitions from the UTC month of $4 to the current one plus $3 (a month is a calendar
 * month of UTC; the series steps in UTC whatever the session's time zone).
 */
export const ENSURE_MONTHS_AHEAD_SQL = `
  SELECT count(*) FILTER (WHERE ensure_month_partition($1, $2, m AT TIME ZONE 'UTC'))::int AS created
  FROM generate_series(date_trunc('month', $4::timestamptz AT TIME ZONE 'UTC'), date_trunc('month', now() AT TIME ZONE 'UTC') + $3 * interval '1 month', interval '1 month') AS m`;

/** Held by whoever creates or drops partitions, so two workers do it one after the other. */
export const PARTITION_LOCK_SQL = `SELECT pg_advisory_xact_lock(hashtextextended('time-partitions', 0))`;

/**
 * $1 the parent: each of its partitions but the default, with its upper bound (the legacy
 * partition, the table as it was before the migration, runs from MINVALUE), oldest first.
 */
export const MONTH_PARTITIONS_SQL = `
  SELECT c.relname AS name, (regexp_match(pg_get_expr(c.relpartbound, c.oid), 'TO \\(''([^'']+)''\\)'))[1]::timestamptz AS upper
  FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
  WHERE i.inhparent = $1::regclass AND pg_get_expr(c.relpartbound, c.oid) <> 'DEFAULT'
  ORDER BY upper`;

/**
 * Taken shared by the batched purges that roll up what they delete (runs, closed cases), so a
 * partition dropped with its rows rolled up cannot lose a row to one of them in between.
 */
export const PARTITION_DROP_GUARD_SQL = `SELECT pg_advisory_xact_lock_shared(hashtextextended('time-partitions', 0))`;

/** How long a partition drop waits for the parent's lock before it gives up until the next pass (writers queue behind it meanwhile). */
export const DETACH_LOCK_TIMEOUT = '500ms';

/** A month partition whose every row is past retention: `rollUp` runs on its rows before it goes. */
export interface PartitionDrop {
  table: TimePartitionedTable;
  /** $1, $2 ...: SQL true when no row of `partition` is to be kept. */
  droppable: (partition: string) => string;
  parameters: unknown[];
  /** The latest upper bound a partition may have to be looked at. */
  before: Date;
  rollUp?: (partition: string) => string;
}

type Query = (sql: string, parameters: unknown[]) => Promise<unknown[]>;

/**
 * Detaches and drops the partitions of `drop.table` up to `drop.before` that `drop.droppable`
 * says hold nothing to keep, each in a transaction of its own: under the exclusive partition
 * lock, the check (a read of the partition, no row locks), the roll-up, then a plain DETACH
 * (ACCESS EXCLUSIVE on the parent from there to the commit, milliseconds; CONCURRENTLY cannot
 * share a transaction with the roll-up) and the DROP. Returns how many rows went, by partition.
 */
export async function dropPartitions(transaction: <T>(work: (query: Query) => Promise<T>) => Promise<T>, drop: PartitionDrop): Promise<Map<string, number>> {
  const dropped = new Map<string, number>();
  const candidates = (await transaction((query) => query(MONTH_PARTITIONS_SQL, [drop.table]))) as { name: string; upper: Date }[];
  for (const { name } of candidates.filter((p) => p.upper.getTime() <= drop.before.getTime())) {
    const rows = await transaction(async (query) => {
      await query(PARTITION_LOCK_SQL, []);
      const [{ droppable }] = (await query(`SELECT ${drop.droppable(name)} AS droppable`, drop.parameters)) as [{ droppable: boolean }];
      if (!droppable) return null;
      const [{ n }] = (await query(`SELECT count(*)::int AS n FROM ${name}`, [])) as [{ n: number }];
      if (drop.rollUp) await query(drop.rollUp(name), []);
      await query(`SET LOCAL lock_timeout = '${DETACH_LOCK_TIMEOUT}'`, []);
      await query(`ALTER TABLE ${drop.table} DETACH PARTITION ${name}`, []);
      await query(`DROP TABLE ${name}`, []);
      return n;
    }).catch((err: { code?: string }) => {
      if (err.code === '55P03') return null;
      throw err;
    });
    if (rows !== null) dropped.set(name, rows);
  }
  return dropped;
}

/** For a table whose rows go one by one with what owns them (the timeline with its case, deliveries with their event): a month is dropped once they all went. */
export const EMPTY_PARTITION = (partition: string) => `NOT EXISTS (SELECT 1 FROM ${partition})`;

/** The start of the current UTC month: a month that ended, and can be empty for good. */
export const startOfMonth = (now = new Date()) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));

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
 * missing partitions from $4 to the current UTC month plus $3.
 */
export const ENSURE_MONTHS_AHEAD_SQL = `
  SELECT count(*) FILTER (WHERE ensure_month_partition($1, $2, m))::int AS created
  FROM generate_series($4::timestamptz, date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' + $3 * interval '1 month', interval '1 month') AS m`;

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

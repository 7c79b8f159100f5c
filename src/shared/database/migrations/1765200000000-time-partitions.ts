import type { MigrationInterface, QueryRunner } from 'typeorm';
import { ENSURE_MONTHS_AHEAD, MONTHS_AHEAD } from '../time-partitions.js';
import { monthPartitionFunction } from './month-partition-function.js';
import { rowsOf, statement } from '../persistence.js';
import { column } from '../typed-statement.js';
import { addCheckNotValid, buildConcurrently, withShortLocks } from './online-schema-changes.js';

/**
 * The timeline, runs, deliveries and audit entries become tables partitioned by month of their
 * time column, without copying a row and without a long lock (docs/deploying.md, "Time
 * partitions"). For each table:
 *
 * 1. Outside any transaction, with writes going on: the new primary key's index is built
 *    CONCURRENTLY, and a CHECK that every row is older than the first month partition is added
 *    NOT VALID, then VALIDATEd (a scan under SHARE UPDATE EXCLUSIVE, which lets writes through).
 * 2. One short transaction (lock_timeout, retried): the table takes the new primary key over
 *    the index built in 1 and becomes `<table>_legacy`; a partitioned table takes its name, its
 *    columns, defaults, checks and indexes; the legacy table is ATTACHed as its partition FROM
 *    (MINVALUE), which the validated CHECK lets skip the scan and the identical indexes let skip
 *    the builds; the month partitions up to MONTHS_AHEAD ahead and the default partition are
 *    created empty.
 *
 * Ids: the partitioned table's `id` defaults to a plain sequence it owns, `<table>_id_seq`,
 * going on from the old identity's next value, and the legacy table's identity is dropped
 * before the ATTACH. Postgres 17 and later refuse to attach a table with an identity column,
 * and before 17 a partitioned table cannot have one (npm run start:local runs Postgres 18, the
 * tests 15). Unlike GENERATED ALWAYS, the default lets a writer name an id; none does.
 *
 * The legacy partition is dropped by retention like any month once all its rows are past it.
 *
 * Keys: workflow_runs and audit_entries are keyed (organization_id, time, id). case_events and
 * event_deliveries have no organization_id and every writer (the intake statement among them)
 * inserts them without one; they are keyed (id, time), which also serves their lookups by id.
 * Each insert updates as many indexes as before: the runs' lookups by id get `workflow_runs_id`,
 * and the indexes the new keys start with (`workflow_runs_usage`, `audit_entries_at`) go.
 * A partitioned table cannot be referenced by a foreign key that lacks its partition key, so
 * delivery_attempts loses its key to event_deliveries: attempts are only ever written for a
 * delivery the worker holds, and deleted with it (delivery-purges.sql.ts).
 */

interface Conversion {
  table: string;
  column: string;
  primaryKey: string[];
  /** Indexes the partitioned table has that the plain table had not (besides the primary key). */
  extraIndexes: Record<string, string>;
  /** Foreign keys pointing at the table, dropped first: `table.constraint`. */
  referencing: string[];
  /** Indexes the new primary key makes redundant (it starts with their columns): not on the partitioned table, dropped from the legacy one. */
  redundant: string[];
}

const CONVERSIONS: Conversion[] = [
  { table: 'case_events', column: 'created_at', primaryKey: ['id', 'created_at'], extraIndexes: {}, referencing: [], redundant: [] },
  {
    table: 'workflow_runs',
    column: 'created_at',
    primaryKey: ['organization_id', 'created_at', 'id'],
    // Runs are looked up by id alone (the relay, the engine's lease): one index probe per partition.
    extraIndexes: { workflow_runs_id: '(id)' },
    referencing: [],
    // (organization_id, created_at): every run written keeps the index count it had.
    redundant: ['workflow_runs_usage'],
  },
  { table: 'event_deliveries', column: 'created_at', primaryKey: ['id', 'created_at'], extraIndexes: {}, referencing: ['delivery_attempts.delivery_attempts_delivery_id_fkey'], redundant: [] },
  { table: 'audit_entries', column: 'at', primaryKey: ['organization_id', 'at', 'id'], extraIndexes: {}, referencing: [], redundant: ['audit_entries_at'] },
];

export class TimePartitions1765200000000 implements MigrationInterface {
  name = 'TimePartitions1765200000000';
  /** Builds indexes CONCURRENTLY and swaps each table in a transaction of its own. */
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    await q.query(monthPartitionFunction(['DEFAULTS', 'CONSTRAINTS']));
    for (const conversion of CONVERSIONS) await convert(q, conversion);
  }

  async down(): Promise<void> {
    throw new Error('TimePartitions1765200000000 cannot be reverted: restore a backup taken before it');
  }
}

const RELATION_KIND = statement(`SELECT relkind::text AS kind FROM pg_class WHERE oid = $1::regclass`, { kind: column.text });
const SECONDARY_INDEXES = statement(
  `SELECT i.relname::text AS name, pg_get_indexdef(i.oid) AS definition FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
   WHERE x.indrelid = $1::regclass AND NOT x.indisprimary AND i.relname <> $2 ORDER BY i.relname`,
  { name: column.text, definition: column.text },
);
const FOREIGN_KEYS = statement(
  `SELECT conname::text AS name, pg_get_constraintdef(oid) AS definition FROM pg_constraint WHERE conrelid = $1::regclass AND contype = 'f'`,
  { name: column.text, definition: column.text },
);
const SERIAL_SEQUENCE = statement(`SELECT pg_get_serial_sequence($1, 'id') AS sequence`, { sequence: column.text });

async function convert(q: QueryRunner, c: Conversion): Promise<void> {
  const [relation] = await rowsOf(q, RELATION_KIND, [c.table]);
  if (relation!.kind === 'p') return;
  // The legacy partition ends with the month after the one in two days, so that a row written
  // while the migration runs, even one started on a month's last day, is not refused by its
  // CHECK; or after the month of the table's latest row, should one be stamped later (a read of
  // the table, as the validation is).
  const [{ boundary }] = (await q.query(
    `SELECT to_char(greatest(date_trunc('month', (now() + interval '2 days') AT TIME ZONE 'UTC'), date_trunc('month', (SELECT max(${c.column}) FROM ${c.table}) AT TIME ZONE 'UTC'))
                    + interval '1 month', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS boundary`,
  )) as [{ boundary: string }];
  const keyIndex = `${c.table}_pkey_next`;
  const range = `${c.table}_legacy_range`;
  for (const [name, columns] of [[keyIndex, `(${c.primaryKey.join(', ')})`], ...Object.entries(c.extraIndexes)] as [string, string][]) {
    await buildConcurrently(q, name, `CREATE ${name === keyIndex ? 'UNIQUE ' : ''}INDEX CONCURRENTLY IF NOT EXISTS ${name} ON ${c.table} ${columns}`);
  }
  await addCheckNotValid(q, c.table, range, `${c.column} < '${boundary}'`);
  await q.query(`ALTER TABLE ${c.table} VALIDATE CONSTRAINT ${range}`);
  await withShortLocks(q, () => swap(q, c, boundary));
}

/** Step 2 of the conversion (see above), in the caller's transaction. */
async function swap(q: QueryRunner, c: Conversion, boundary: string): Promise<void> {
  const { table, column } = c;
  const legacy = `${table}_legacy`;
  for (const reference of c.referencing) {
    const [from, constraint] = reference.split('.');
    await q.query(`ALTER TABLE ${from} DROP CONSTRAINT ${constraint}`);
  }
  const indexes = await rowsOf(q, SECONDARY_INDEXES, [table, `${table}_pkey_next`]);
  const foreignKeys = await rowsOf(q, FOREIGN_KEYS, [table]);
  const [serial] = await rowsOf(q, SERIAL_SEQUENCE, [table]);
  const sequence = serial!.sequence;

  await q.query(`ALTER TABLE ${table} DROP CONSTRAINT ${table}_pkey, ADD CONSTRAINT ${legacy}_pkey PRIMARY KEY USING INDEX ${table}_pkey_next`);
  // Read under the table's ACCESS EXCLUSIVE lock, which every insert waits for: no id is taken after it.
  const next = await nextId(q, sequence);
  await q.query(`ALTER TABLE ${table} RENAME TO ${legacy}`);
  // Drops the identity's sequence too, and with it the name the parent's sequence takes.
  await q.query(`ALTER TABLE ${legacy} ALTER COLUMN id DROP IDENTITY`);
  for (const index of indexes) await q.query(`ALTER INDEX ${index.name} RENAME TO ${index.name}_legacy`);

  await q.query(`CREATE TABLE ${table} (LIKE ${legacy} INCLUDING DEFAULTS INCLUDING CONSTRAINTS) PARTITION BY RANGE (${column})`);
  await q.query(`CREATE SEQUENCE ${table}_id_seq AS bigint START WITH ${next} OWNED BY ${table}.id`);
  await q.query(`ALTER TABLE ${table} ALTER COLUMN id SET DEFAULT nextval('${table}_id_seq')`);
  await q.query(`ALTER TABLE ${table} DROP CONSTRAINT ${table}_legacy_range, ADD CONSTRAINT ${table}_pkey PRIMARY KEY (${c.primaryKey.join(', ')})`);
  // Each index as the plain table had it (the extra ones built in step 1 among them), matched by ATTACH.
  for (const index of indexes) if (!c.redundant.includes(index.name)) await q.query(index.definition);
  for (const fk of foreignKeys) await q.query(`ALTER TABLE ${table} ADD CONSTRAINT ${fk.name} ${fk.definition}`);
  await q.query(`ALTER TABLE ${table} ATTACH PARTITION ${legacy} FOR VALUES FROM (MINVALUE) TO ('${boundary}')`);
  await q.query(`ALTER TABLE ${legacy} DROP CONSTRAINT ${table}_legacy_range`);
  for (const name of c.redundant) await q.query(`DROP INDEX ${name}_legacy`);
  await q.query(`CREATE TABLE ${table}_default PARTITION OF ${table} DEFAULT`);
  await q.query(ENSURE_MONTHS_AHEAD.text, [table, column, MONTHS_AHEAD, boundary]);
}

async function nextId(q: QueryRunner, sequence: string): Promise<string> {
  const [{ next }] = (await q.query(`SELECT CASE WHEN is_called THEN last_value + 1 ELSE last_value END AS next FROM ${sequence}`)) as [{ next: string }];
  return next;
}


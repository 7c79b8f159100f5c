import type { QueryRunner } from 'typeorm';
import { rowsOf, statement } from '../persistence.js';
import { column } from '../typed-statement.js';

const LOCK_TIMEOUT = '2s';
const ATTEMPTS = 30;

/**
 * Runs `work` in a transaction whose locks wait at most LOCK_TIMEOUT, again until it gets them:
 * a migration's ACCESS EXCLUSIVE lock that queued behind a long reader would stall every writer
 * queued behind it for as long.
 */
export async function withShortLocks(q: QueryRunner, work: () => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await q.startTransaction();
    try {
      await q.query(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`);
      await work();
      await q.commitTransaction();
      return;
    } catch (err) {
      await q.rollbackTransaction();
      if ((err as { code?: string }).code !== '55P03' || attempt === ATTEMPTS) throw err;
    }
  }
}

/** Runs a `CREATE INDEX CONCURRENTLY IF NOT EXISTS` of index `name`, building again an index a failed build left invalid. */
export async function buildConcurrently(q: QueryRunner, name: string, create: string): Promise<void> {
  await q.query(`DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_index WHERE indexrelid = to_regclass('${name}') AND NOT indisvalid) THEN EXECUTE 'DROP INDEX ${name}'; END IF; END $$`);
  await q.query(create);
}

const CONSTRAINT_EXISTS = statement(`SELECT true AS found FROM pg_constraint WHERE conrelid = $1::regclass AND conname = $2`, { found: column.bool });

/**
 * Adds CHECK constraint `name` to `table` NOT VALID (no scan: a short ACCESS EXCLUSIVE only),
 * unless a run interrupted after adding it did so; the caller VALIDATEs it, a scan that lets
 * writes through.
 */
export async function addCheckNotValid(q: QueryRunner, table: string, name: string, condition: string): Promise<void> {
  await withShortLocks(q, async () => {
    if (!(await rowsOf(q, CONSTRAINT_EXISTS, [table, name])).length) await q.query(`ALTER TABLE ${table} ADD CONSTRAINT ${name} CHECK (${condition}) NOT VALID`);
  });
}

const PARTITIONS = statement(`SELECT inhrelid::regclass::text AS name FROM pg_inherits WHERE inhparent = $1::regclass ORDER BY inhrelid`, { name: column.text });

/** The partitions of `table`, in the order they were made: the order in which a write locks them. */
export async function partitionsOf(q: QueryRunner, table: string): Promise<string[]> {
  return (await rowsOf(q, PARTITIONS, [table])).map((row) => row.name);
}

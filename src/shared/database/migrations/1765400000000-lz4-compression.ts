import type { MigrationInterface, QueryRunner } from 'typeorm';
import { rowsOf, statement } from '../persistence.js';
import { column } from '../typed-statement.js';
import { monthPartitionFunction } from './month-partition-function.js';
import { partitionsOf, withShortLocks } from './online-schema-changes.js';

/**
 * The columns that hold what strangers send (a webhook's body, a mail, a comment) and what is
 * built from it are compressed with lz4 instead of Postgres' default, pglz. A 2 KB webhook body
 * is past the size at which Postgres compresses a row, and pglz was the largest single cost of
 * the intake statement in Postgres (6 % of the machine's CPU under load, perf; lz4: under 1 %,
 * docs/benchmarks.md). lz4 also reads back faster, for the lists, the feed and the indexer.
 *
 * Only new values are written so: the rows there were keep pglz, and Postgres reads both. A
 * column's compression is a catalog change (ACCESS EXCLUSIVE, briefly; nothing is rewritten).
 * Postgres does not pass it on from a partitioned table to the partitions it has, so each one is
 * changed too, and the months created from now on copy it (ensure_month_partition, redefined with
 * INCLUDING COMPRESSION). A Postgres built without lz4 (the embedded one of `start:local`) keeps
 * pglz: the migration changes only the function there.
 */
export const COMPRESSED: Record<string, readonly string[]> = {
  cases: ['attributes'],
  case_events: ['data'],
  workflow_runs: ['steps'],
  outbox_events: ['payload', 'details'],
  case_event_handlings: ['payload'],
  case_comments: ['body'],
  case_attachments: ['content'],
  case_search_documents: ['fields', 'subject_text', 'attributes_text', 'case_text', 'all_text'],
};

export class Lz4Compression1765400000000 implements MigrationInterface {
  name = 'Lz4Compression1765400000000';
  /** Each table's change in a short transaction of its own. */
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    await q.query(monthPartitionFunction(['DEFAULTS', 'CONSTRAINTS', 'COMPRESSION']));
    if (await supportsLz4(q)) await setCompression(q, 'lz4');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(monthPartitionFunction(['DEFAULTS', 'CONSTRAINTS']));
    if (await supportsLz4(q)) await setCompression(q, 'default');
  }
}

/** Each table's columns in a short transaction of its own: the parent first, then its partitions, the order in which a write locks them. */
async function setCompression(q: QueryRunner, method: 'lz4' | 'default'): Promise<void> {
  for (const [table, columns] of Object.entries(COMPRESSED)) {
    await withShortLocks(q, async () => {
      for (const relation of [table, ...(await partitionsOf(q, table))]) {
        await q.query(`ALTER TABLE ${relation} ${columns.map((column) => `ALTER COLUMN ${column} SET COMPRESSION ${method}`).join(', ')}`);
      }
    });
  }
}

const LZ4_SUPPORTED = statement(`SELECT 'lz4' = ANY (enumvals) AS lz4 FROM pg_settings WHERE name = 'default_toast_compression'`, { lz4: column.bool });

export async function supportsLz4(q: QueryRunner): Promise<boolean> {
  const [row] = await rowsOf(q, LZ4_SUPPORTED);
  return row!.lz4;
}

/**
 * Lz4Compression1765400000000: where the test Postgres is built with lz4 (the system one here),
 * the columns that hold strangers' data, in every table and every partition there is, and in a
 * month created after the migration, are compressed with lz4, and a row written past the size at
 * which Postgres compresses is so; a Postgres without lz4 (the embedded one) keeps pglz.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { COMPRESSED } from '../../src/shared/database/migrations/1765400000000-lz4-compression.js';
import { createTestDatabase, dropTestDatabase } from '../support/test-infra.js';

describe('the migration to lz4 compression', () => {
  const server = new URL(process.env.DATABASE_URL!);
  server.pathname = '/postgres';
  let url: string;
  let db: pg.Pool;
  let lz4: boolean;

  before(async () => {
    url = await createTestDatabase(server.toString(), `cis_iso_lz4_${randomBytes(4).toString('hex')}`);
    db = new pg.Pool({ connectionString: url, max: 2 });
    const { rows: [support] } = await db.query(`SELECT 'lz4' = ANY (enumvals) AS lz4 FROM pg_settings WHERE name = 'default_toast_compression'`);
    lz4 = support.lz4;
  });
  after(async () => {
    await db.end();
    await dropTestDatabase(server.toString(), url);
  });

  const compressionOf = async (tables: readonly string[]) =>
    (
      await db.query(
        `SELECT c.relname AS "table", a.attname AS "column", a.attcompression::text AS method
         FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid
         WHERE (c.relname = ANY($1) OR c.oid IN (SELECT inhrelid FROM pg_inherits WHERE inhparent = ANY($1::regclass[])))
           AND a.attname = ANY($2) ORDER BY 1, 2`,
        [tables, Object.values(COMPRESSED).flat()],
      )
    ).rows.filter((row) => COMPRESSED[row.table.replace(/_(p\d{6}|legacy|default)$/, '')]?.includes(row.column));

  it('sets lz4 on each column of each table and partition, and on a month created later, where Postgres has it', async () => {
    const tables = Object.keys(COMPRESSED);
    await db.query(`SELECT ensure_month_partition('case_events', 'created_at', '2031-07-01T00:00:00Z')`);
    const columns = await compressionOf(tables);
    const relations = new Set(columns.map((row) => row.table));
    const partitions = ['case_events_legacy', 'case_events_default', 'case_events_p203107', 'workflow_runs_legacy', 'workflow_runs_default'];
    for (const name of partitions) assert.ok(relations.has(name), `${name} among ${[...relations]}`);
    for (const table of ['case_events', 'workflow_runs']) assert.ok([...relations].some((name) => name.startsWith(`${table}_p202`)), `a month of ${table} the migrations made`);
    for (const row of columns) assert.equal(row.method, lz4 ? 'l' : '', `${row.table}.${row.column}`);
  });

  it('writes a large case with lz4 where Postgres has it', async () => {
    await db.query(`
      INSERT INTO organizations (name) VALUES ('lz4');
      INSERT INTO workflows (organization_id, draft, published, version) VALUES (1, '{}', true, 1);
      INSERT INTO workflow_versions (workflow_id, version, definition) VALUES (1, 1, '{}')`);
    const attributes = { body: Array.from({ length: 400 }, (_, i) => `line ${i} of a webhook's body`).join('\n') };
    await db.query(
      `INSERT INTO cases (organization_id, workflow_id, workflow_version, subject, status, mode, source, attributes)
       VALUES (1, 1, 1, 's', 'Open', 'live', 'API', $1)`,
      [attributes],
    );
    const { rows: [stored] } = await db.query(`SELECT pg_column_compression(attributes) AS method, attributes FROM cases`);
    assert.equal(stored.method, lz4 ? 'lz4' : 'pglz');
    assert.deepEqual(stored.attributes, attributes);
  });
});

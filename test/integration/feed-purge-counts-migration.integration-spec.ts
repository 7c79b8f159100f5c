/**
 * FeedPurgeCounts1765500000000: what purges recorded before the migration becomes purge 1 of its
 * workflow, and a purge by the previous release's instances (which insert without a number) is
 * counted and numbered by the trigger, in the order purges commit, while this release's purges
 * number their own rows.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { runMigrations } from '../../src/shared/database/migrate.js';
import { createTestDatabase, dropTestDatabase } from '../support/test-infra.js';

describe('the migration to numbered feed purges', () => {
  const server = new URL(process.env.DATABASE_URL!);
  server.pathname = '/postgres';
  let url: string;
  let db: pg.Pool;

  /** A purge as the previous release wrote it (case-purges.sql.ts before this migration): no number. */
  const previousReleasePurge = (client: pg.Pool | pg.PoolClient, workflowId: number, changeXid: number, caseId: number) =>
    client.query(
      `INSERT INTO case_feed_purges AS p (workflow_id, purge_xid, change_xid, case_id) VALUES ($1, pg_current_xact_id(), $2::text::xid8, $3)
       ON CONFLICT (workflow_id, purge_xid) DO UPDATE SET change_xid = EXCLUDED.change_xid, case_id = EXCLUDED.case_id`,
      [workflowId, changeXid, caseId],
    );
  const purges = async () => (await db.query('SELECT workflow_id::int, purge::int, case_id::int FROM case_feed_purges ORDER BY workflow_id, purge, case_id')).rows;
  const counts = async () => (await db.query('SELECT organization_id::int, workflow_id::int, purges::int FROM case_feed_purge_counts ORDER BY workflow_id')).rows;

  before(async () => {
    url = await createTestDatabase(server.toString(), `cis_iso_feedpurges_${randomBytes(4).toString('hex')}`, undefined, 'FeedPurgeCounts1765500000000');
    db = new pg.Pool({ connectionString: url, max: 3 });
    await db.query(`
      INSERT INTO organizations (name) VALUES ('first'), ('second');
      INSERT INTO workflows (organization_id, draft, published, version) VALUES (1, '{}', true, 1), (2, '{}', true, 1), (2, '{}', true, 1);`);
    for (const [workflowId, caseId] of [[1, 10], [1, 11], [2, 20]] as const) await previousReleasePurge(db, workflowId, 100 + caseId, caseId);
    await runMigrations(url);
  });
  after(async () => {
    await db.end();
    await dropTestDatabase(server.toString(), url);
  });

  it('makes what purges recorded before it purge 1 of each workflow, its count 1', async () => {
    assert.deepEqual(await purges(), [{ workflow_id: 1, purge: 1, case_id: 10 }, { workflow_id: 1, purge: 1, case_id: 11 }, { workflow_id: 2, purge: 1, case_id: 20 }]);
    assert.deepEqual(await counts(), [{ organization_id: 1, workflow_id: 1, purges: 1 }, { organization_id: 2, workflow_id: 2, purges: 1 }]);
  });

  it("numbers the previous release's purges in the order they commit: the second waits for the first", async () => {
    const first = await db.connect();
    const second = await db.connect();
    try {
      await first.query('BEGIN');
      await second.query('BEGIN');
      await previousReleasePurge(first, 3, 300, 30);
      const waiting = previousReleasePurge(second, 3, 301, 31).then(() => second.query('COMMIT'));
      const blocked = await Promise.race([waiting.then(() => false), new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 300))]);
      assert.ok(blocked, 'the second purge of the workflow waits for the first to commit');
      await first.query('COMMIT');
      await waiting;
    } finally {
      first.release();
      second.release();
    }
    assert.deepEqual((await purges()).filter((p) => p.workflow_id === 3), [{ workflow_id: 3, purge: 1, case_id: 30 }, { workflow_id: 3, purge: 2, case_id: 31 }]);
    assert.deepEqual((await counts()).find((c) => c.workflow_id === 3), { organization_id: 2, workflow_id: 3, purges: 2 });
  });

  it("leaves a row that names its number as it is: this release's purges count their own", async () => {
    await db.query(`INSERT INTO case_feed_purges (workflow_id, purge, purge_xid, change_xid, case_id) VALUES (2, 7, pg_current_xact_id(), '500', 50)`);
    assert.deepEqual((await purges()).filter((p) => p.case_id === 50), [{ workflow_id: 2, purge: 7, case_id: 50 }]);
    assert.deepEqual((await counts()).find((c) => c.workflow_id === 2), { organization_id: 2, workflow_id: 2, purges: 1 });
  });
});

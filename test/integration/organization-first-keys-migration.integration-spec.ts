/**
 * OrganizationFirstKeys1765300000000 on a populated, partitioned database with a writer of the
 * previous release going on (it inserts timeline rows and deliveries without `organization_id`):
 * every row gets its case's or its subscription's organization, nothing is refused, a timeline
 * row whose case is gone is deleted, and the primary keys of the two tables and of each of their
 * partitions start with `organization_id`, the partitions' taken over from indexes built
 * CONCURRENTLY beforehand.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { runMigrations } from '../../src/shared/database/migrate.js';
import { createTestDatabase, dropTestDatabase } from '../support/test-infra.js';

const ROWS = 20_000;
const TABLES = ['case_events', 'event_deliveries'];

describe('the migration to organization-first keys', () => {
  const server = new URL(process.env.DATABASE_URL!);
  server.pathname = '/postgres';
  let url: string;
  let db: pg.Pool;

  before(async () => {
    url = await createTestDatabase(server.toString(), `cis_iso_orgkeys_${randomBytes(4).toString('hex')}`, undefined, 'OrganizationFirstKeys1765300000000');
    db = new pg.Pool({ connectionString: url, max: 3 });
  });
  after(async () => {
    await db.end();
    await dropTestDatabase(server.toString(), url);
  });

  it('fills and keys the timeline and the deliveries by organization while a writer goes on', async () => {
    await db.query(`
      INSERT INTO organizations (name) VALUES ('first'), ('second');
      INSERT INTO workflows (organization_id, draft, published, version) VALUES (1, '{}', true, 1), (2, '{}', true, 1);
      INSERT INTO workflow_versions (workflow_id, version, definition) VALUES (1, 1, '{}'), (2, 1, '{}');
      INSERT INTO cases (organization_id, workflow_id, workflow_version, subject, status, mode, source, attributes)
        VALUES (1, 1, 1, 's', 'Open', 'live', 'API', '{}'), (2, 2, 1, 's', 'Open', 'live', 'API', '{}');
      INSERT INTO subscriptions (organization_id, url, events, secret_ciphertext)
        VALUES (1, 'https://receiver.example/one', ARRAY['case.created'], 'unused'), (2, 'https://receiver.example/two', ARRAY['case.created'], 'unused');
      INSERT INTO outbox_events (organization_id, workflow_id, case_id, type, payload) VALUES (1, 1, 1, 'case.created', '{}'), (2, 2, 2, 'case.created', '{}');
      INSERT INTO case_events (case_id, type, actor, created_at) SELECT 1 + g % 2, 'note', 'test', now() - (g % 60) * interval '1 day' FROM generate_series(1, ${ROWS}) g;
      INSERT INTO case_events (case_id, type, actor) VALUES (999, 'note', 'of a case gone');
      INSERT INTO event_deliveries (event_id, subscription_id, case_id) SELECT 1 + g % 2, 1 + g % 2, 1 + g % 2 FROM generate_series(1, 1000) g;
    `);

    let writes = 0;
    let writing = true;
    const writer = (async () => {
      while (writing) {
        await db.query(`INSERT INTO case_events (case_id, type, actor) VALUES (2, 'note', 'previous release')`);
        await db.query(`INSERT INTO event_deliveries (event_id, subscription_id, case_id) VALUES (2, 2, 2)`);
        writes++;
      }
    })();
    await runMigrations(url);
    writing = false;
    await writer;
    assert.ok(writes > 0, 'the writer wrote during the migration');

    const { rows: timeline } = await db.query(`SELECT e.organization_id::int AS organization, c.organization_id::int AS of_case, count(*)::int AS n
      FROM case_events e LEFT JOIN cases c ON c.id = e.case_id GROUP BY 1, 2 ORDER BY 1`);
    assert.deepEqual(timeline, [
      { organization: 1, of_case: 1, n: ROWS / 2 },
      { organization: 2, of_case: 2, n: ROWS / 2 + writes },
    ]);
    const { rows: deliveries } = await db.query(`SELECT d.organization_id::int AS organization, s.organization_id::int AS of_subscription, count(*)::int AS n
      FROM event_deliveries d JOIN subscriptions s ON s.id = d.subscription_id GROUP BY 1, 2 ORDER BY 1`);
    assert.deepEqual(deliveries, [
      { organization: 1, of_subscription: 1, n: 500 },
      { organization: 2, of_subscription: 2, n: 500 + writes },
    ]);

    const { rows: keys } = await db.query(
      `SELECT c.relname AS "table", pg_get_indexdef(i.indexrelid) AS key, i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
       WHERE i.indisprimary AND (c.relname = ANY($1) OR c.oid IN (SELECT inhrelid FROM pg_inherits WHERE inhparent = ANY($1::regclass[]))) ORDER BY 1`,
      [TABLES],
    );
    assert.ok(keys.length >= 2 * 5, `the parents, their legacy, default and month partitions: ${keys.map((k) => k.table)}`);
    for (const key of keys) {
      assert.match(key.key, key.table.startsWith('case_events') ? /\(organization_id, case_id, id, created_at\)$/ : /\(organization_id, created_at, id\)$/, key.table);
      assert.equal(key.valid, true, key.table);
    }

    const { rows: [added] } = await db.query(`INSERT INTO case_events (organization_id, case_id, type, actor) VALUES (1, 1, 'note', 'this release') RETURNING organization_id::int`);
    assert.equal(added.organization_id, 1);
    await assert.rejects(db.query(`INSERT INTO case_events (case_id, type, actor) VALUES (999, 'note', 'of a case gone')`), { code: '23502' });

    const { rows: caseIndexes } = await db.query(`SELECT indexrelid::regclass::text AS name FROM pg_index WHERE indrelid = 'case_events'::regclass`);
    assert.deepEqual(caseIndexes, [{ name: 'case_events_pkey' }], 'the key serves the reads by case');

    await db.query('ANALYZE event_deliveries');
    const { rows: plan } = await db.query(`EXPLAIN SELECT * FROM event_deliveries WHERE id = 5`);
    const text = plan.map((row) => row['QUERY PLAN']).join('\n');
    assert.match(text, /Index Scan using event_deliveries_legacy_by_id on event_deliveries_legacy/, text);
  });
});

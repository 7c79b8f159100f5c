/**
 * The migration to month partitions (TimePartitions1765200000000) on a populated database with
 * writes going on: no row lost or refused, ids going on from where they were, the old rows in
 * the legacy partition read through their indexes, and rows of any time accepted afterwards.
 * Ids come from a sequence the partitioned table owns, not an identity (Postgres 17 and later
 * refuse to attach a table with one, before 17 a partitioned table cannot have one): it outlives
 * the legacy partition, which retention drops one day.
 * The 1M-row figures are bench/partitions.ts's (docs/benchmarks.md, "Time partitions").
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { runMigrations } from '../../src/shared/database/migrate.js';
import { createTestDatabase, dropTestDatabase } from '../support/test-infra.js';

const ROWS = 20_000;
const TABLES = ['case_events', 'workflow_runs', 'event_deliveries', 'audit_entries'];

describe('the migration to month partitions', () => {
  const server = new URL(process.env.DATABASE_URL!);
  server.pathname = '/postgres';
  let url: string;
  let db: pg.Pool;
  const counts = async () => Object.fromEntries(await Promise.all(TABLES.map(async (t) => [t, (await db.query(`SELECT count(*)::int AS n FROM ${t}`)).rows[0].n as number])));

  before(async () => {
    url = await createTestDatabase(server.toString(), `cis_iso_parts_${randomBytes(4).toString('hex')}`, undefined, 'TimePartitions1765200000000');
    db = new pg.Pool({ connectionString: url, max: 3 });
  });
  after(async () => {
    await db.end();
    await dropTestDatabase(server.toString(), url);
  });

  it('partitions the four tables while a writer goes on, losing and refusing nothing', async () => {
    await db.query(`
      INSERT INTO organizations (name) VALUES ('partitioned');
      INSERT INTO workflows (organization_id, draft, published, version) VALUES (1, '{}', true, 1);
      INSERT INTO workflow_versions (workflow_id, version, definition) VALUES (1, 1, '{}');
      INSERT INTO cases (organization_id, workflow_id, workflow_version, subject, status, mode, source, attributes) VALUES (1, 1, 1, 's', 'Open', 'live', 'API', '{}');
      INSERT INTO subscriptions (organization_id, url, events, secret_ciphertext) VALUES (1, 'https://receiver.example/hook', ARRAY['case.created'], 'unused');
      INSERT INTO outbox_events (organization_id, workflow_id, case_id, type, payload) VALUES (1, 1, 1, 'case.created', '{}');
      INSERT INTO case_events (case_id, type, actor, created_at) SELECT 1, 'note', 'test', now() - g * interval '1 minute' FROM generate_series(1, ${ROWS}) g;
      INSERT INTO case_events (case_id, type, actor, created_at) VALUES (1, 'note', 'stamped ahead', now() + interval '400 days');
      INSERT INTO workflow_runs (case_id, organization_id, workflow_id, workflow_version, status, mode, created_at) SELECT 1, 1, 1, 1, 'Open', 'live', now() - g * interval '1 minute' FROM generate_series(1, ${ROWS}) g;
      INSERT INTO event_deliveries (event_id, subscription_id, case_id) SELECT 1, 1, 1 FROM generate_series(1, 100);
      INSERT INTO audit_entries (organization_id, actor_type, actor_id, actor_name, action, target_type, target_id, summary)
        SELECT 1, 'operator', 'op', 'op', 'x.y', 't', g::text, '{}' FROM generate_series(1, ${ROWS}) g;
    `);
    const { rows: [last] } = await db.query(`SELECT max(id)::int AS run FROM workflow_runs`);
    const before = await counts();

    let writes = 0;
    let writing = true;
    const writer = (async () => {
      while (writing) {
        await db.query(`INSERT INTO case_events (case_id, type, actor) VALUES (1, 'note', 'writer')`);
        await db.query(`INSERT INTO workflow_runs (case_id, organization_id, workflow_id, workflow_version, status, mode) VALUES (1, 1, 1, 1, 'Open', 'live')`);
        writes++;
      }
    })();
    await runMigrations(url);
    writing = false;
    await writer;

    assert.ok(writes > 0, 'the writer wrote during the migration');
    const { rows: kinds } = await db.query(`SELECT relname, relkind FROM pg_class WHERE relname = ANY($1) ORDER BY relname`, [TABLES]);
    assert.deepEqual(kinds.map((k) => k.relkind), ['p', 'p', 'p', 'p']);
    assert.deepEqual(await counts(), { ...before, case_events: before.case_events + writes, workflow_runs: before.workflow_runs + writes });
    const { rows: legacy } = await db.query(`SELECT count(*)::int AS n FROM workflow_runs_legacy WHERE id <= $1`, [last.run]);
    assert.equal(legacy[0].n, ROWS, 'the old rows are the legacy partition');
    const { rows: ahead } = await db.query(`SELECT tableoid::regclass::text AS partition FROM case_events WHERE actor = 'stamped ahead'`);
    assert.equal(ahead[0].partition, 'case_events_legacy', 'the legacy partition reaches past its latest row');

    const { rows: [next] } = await db.query(
      `INSERT INTO workflow_runs (case_id, organization_id, workflow_id, workflow_version, status, mode) VALUES (1, 1, 1, 1, 'Open', 'live') RETURNING id::int, tableoid::regclass::text AS partition`,
    );
    assert.ok(next.id > last.run + writes, 'ids go on from the old sequence');
    const { rows: far } = await db.query(`INSERT INTO case_events (case_id, type, actor, created_at) VALUES (1, 'note', 't', now() + interval '5 years') RETURNING tableoid::regclass::text AS partition`);
    assert.equal(far[0].partition, 'case_events_default');
    const { rows: [delivery] } = await db.query(`SELECT id FROM event_deliveries LIMIT 1`);
    await db.query(`INSERT INTO delivery_attempts (delivery_id, attempt, delivered) VALUES ($1, 1, true)`, [delivery.id]);

    const { rows: identities } = await db.query(
      `SELECT c.relname, a.attidentity, pg_get_serial_sequence(c.relname, 'id') AS sequence FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
       WHERE c.relname = ANY($1) AND a.attname = 'id' ORDER BY c.relname`,
      [[...TABLES, ...TABLES.map((t) => `${t}_legacy`)]],
    );
    assert.deepEqual(
      identities.map((i) => [i.relname, i.attidentity, i.sequence]),
      [...TABLES, ...TABLES.map((t) => `${t}_legacy`)].sort().map((t) => [t, '', t.endsWith('_legacy') ? null : `public.${t}_id_seq`]),
    );
    await db.query(`ALTER TABLE audit_entries DETACH PARTITION audit_entries_legacy`);
    await db.query(`DROP TABLE audit_entries_legacy`);
    const { rows: [entry] } = await db.query(`INSERT INTO audit_entries (organization_id, actor_type, actor_id, actor_name, action, target_type, target_id, summary) VALUES (1, 'operator', 'op', 'op', 'x.y', 't', 'after', '{}') RETURNING id::int`);
    assert.equal(entry.id, ROWS + 1, 'ids go on once the legacy partition is dropped');

    await db.query('ANALYZE workflow_runs');
    const { rows: plan } = await db.query(`EXPLAIN SELECT * FROM workflow_runs WHERE id = $1`, [last.run]);
    const text = plan.map((row) => row['QUERY PLAN']).join('\n');
    assert.match(text, /Index Scan using workflow_runs_id_legacy on workflow_runs_legacy/, text);
    assert.doesNotMatch(text, /Seq Scan on workflow_runs_legacy/, text);
  });
});

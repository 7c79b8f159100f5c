/**
 * The migration that stores workflow definitions as json, over rows the jsonb schema wrote:
 * the definitions are kept, and what is saved afterwards keeps its key order.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { QueryRunner } from 'typeorm';
import { DefinitionsAsSaved1763890800000 } from '../../src/shared/database/migrations/1763890800000-definitions-as-saved.js';
import { type IsolatedDatabase, isolatedDatabase } from '../support/automation-helpers.js';

describe('definitions as saved migration', () => {
  let database: IsolatedDatabase;
  const migration = new DefinitionsAsSaved1763890800000();
  const runner = () => ({ query: (sql: string) => database.pool.query(sql) }) as unknown as QueryRunner;

  before(async () => { database = await isolatedDatabase(); });
  after(() => database?.drop());

  it('keeps the drafts and versions jsonb stored, and keeps the key order of what is saved after it', async () => {
    await migration.down(runner());
    const definition = '{"name": "Orders", "attributes": {"zeta_reference": {"type": "string"}, "b": {"type": "integer"}}}';
    const [org] = (await database.pool.query<{ id: string }>(`INSERT INTO organizations (name) VALUES ('Acme') RETURNING id`)).rows;
    const [workflow] = (await database.pool.query<{ id: string }>(`INSERT INTO workflows (organization_id, draft, published, version) VALUES ($1, $2, true, 1) RETURNING id`, [org!.id, definition])).rows;
    await database.pool.query(`INSERT INTO workflow_versions (workflow_id, version, definition) VALUES ($1, 1, $2)`, [workflow!.id, definition]);
    await migration.up(runner());

    const stored = async () => (await database.pool.query(`SELECT w.draft::jsonb = $2::jsonb AS draft, v.definition::jsonb = $2::jsonb AS version, pg_typeof(w.draft)::text AS type
      FROM workflows w JOIN workflow_versions v ON v.workflow_id = w.id WHERE w.id = $1`, [workflow!.id, definition])).rows[0];
    assert.deepEqual(await stored(), { draft: true, version: true, type: 'json' });
    await database.pool.query(`UPDATE workflows SET draft = $2 WHERE id = $1`, [workflow!.id, definition]);
    assert.deepEqual(Object.keys((await database.pool.query(`SELECT draft FROM workflows WHERE id = $1`, [workflow!.id])).rows[0].draft.attributes), ['zeta_reference', 'b']);

    await migration.down(runner());
    assert.deepEqual(await stored(), { draft: true, version: true, type: 'jsonb' });
    await migration.up(runner());
  });
});

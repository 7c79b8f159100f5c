import type { MigrationInterface, QueryRunner } from 'typeorm';
import { PARTITION_LOCK } from '../time-partitions.js';
import { rowsOf, statement } from '../persistence.js';
import { column } from '../typed-statement.js';
import { addCheckNotValid, buildConcurrently, partitionsOf, withShortLocks } from './online-schema-changes.js';

/**
 * The timeline and the deliveries get `organization_id`, first in their primary keys as in every
 * other table's (the way to shard by organization), on a populated database without a long lock
 * (docs/deploying.md, "Time partitions"). For each table:
 *
 * 1. A short transaction adds the column (no default: nothing is rewritten) and a trigger that
 *    fills it, from the row the table points at, for a writer that does not name it: an instance
 *    of the previous release still taking traffic while this one rolls out. The trigger's WHEN
 *    keeps this release's writers, which name it, from calling it. A later release drops it.
 * 2. Batches of BATCH ids fill the rows there were, each its own statement (row locks only). A
 *    row whose owner is gone (a timeline row whose case no longer exists: the timeline has no
 *    foreign key) has no organization to take and nothing that reads it; it is deleted.
 * 3. `NOT NULL` through a CHECK added NOT VALID and VALIDATEd (a scan that lets writes through),
 *    which spares SET NOT NULL its scan.
 * 4. Each partition's new key index is built CONCURRENTLY (and the deliveries' index by id).
 * 5. One short transaction, under the partition lock so no month comes or goes meanwhile, swaps
 *    the keys: each partition's index becomes its primary key (USING INDEX, no build), and the
 *    parent's new primary key adopts them; a partition created after step 4 gets its index built
 *    there (a month ahead, empty).
 *
 * The timeline is read by case, in id order, never by id alone: its key (organization_id, case_id,
 * id, created_at) takes the place of `case_events_case` (case_id, id), and a timeline row written
 * updates one index where it updated two. The deliveries are keyed (organization_id, created_at,
 * id), as the runs and audit entries are, and looked up by id (the worker's claim, lease, outcome)
 * through `event_deliveries_id`: one probe a partition, as the runs' `workflow_runs_id`.
 */

interface Table {
  name: 'case_events' | 'event_deliveries';
  /** The table whose row carries the organization, and the column pointing at it. */
  owner: string;
  via: string;
  key: string;
  /** An index by id alone, built beside the key: the table is looked up by id. */
  indexById: boolean;
  /** The index the new key serves for. */
  replaces?: string;
}

const TABLES: Table[] = [
  // A case's timeline is read along the key, in id order: one index per row written, where there were two.
  { name: 'case_events', owner: 'cases', via: 'case_id', key: '(organization_id, case_id, id, created_at)', indexById: false, replaces: 'case_events_case' },
  { name: 'event_deliveries', owner: 'subscriptions', via: 'subscription_id', key: '(organization_id, created_at, id)', indexById: true },
];
const BATCH = 10_000;

export class OrganizationFirstKeys1765300000000 implements MigrationInterface {
  name = 'OrganizationFirstKeys1765300000000';
  /** Builds indexes CONCURRENTLY and fills rows in batches of their own. */
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    for (const table of TABLES) await addOrganization(q, table);
  }

  async down(): Promise<void> {
    throw new Error('OrganizationFirstKeys1765300000000 cannot be reverted: restore a backup taken before it');
  }
}

const KEYED_BY_ORGANIZATION = statement(
  `SELECT EXISTS (SELECT 1 FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
                  WHERE i.indrelid = $1::regclass AND i.indisprimary AND a.attname = 'organization_id') AS done`,
  { done: column.bool },
);
const RELATION_EXISTS = statement(`SELECT true AS found FROM pg_class WHERE relname = $1`, { found: column.bool });

async function addOrganization(q: QueryRunner, t: Table): Promise<void> {
  const [keyed] = await rowsOf(q, KEYED_BY_ORGANIZATION, [t.name]);
  if (keyed!.done) return;
  const trigger = `${t.name}_organization`;
  const check = `${t.name}_organization_set`;
  await withShortLocks(q, async () => {
    await q.query(`ALTER TABLE ${t.name} ADD COLUMN IF NOT EXISTS organization_id bigint`);
    await q.query(`CREATE OR REPLACE FUNCTION ${trigger}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN NEW.organization_id := (SELECT organization_id FROM ${t.owner} WHERE id = NEW.${t.via}); RETURN NEW; END $$`);
    await q.query(`DROP TRIGGER IF EXISTS ${trigger} ON ${t.name}`);
    await q.query(`CREATE TRIGGER ${trigger} BEFORE INSERT ON ${t.name} FOR EACH ROW WHEN (NEW.organization_id IS NULL) EXECUTE FUNCTION ${trigger}()`);
  });

  const filled = await fill(q, t, 0);
  await addCheckNotValid(q, t.name, check, 'organization_id IS NOT NULL');
  // Rows written between the first pass and the CHECK by a writer the trigger could not help (their owner gone).
  await fill(q, t, filled);
  await q.query(`ALTER TABLE ${t.name} VALIDATE CONSTRAINT ${check}`);
  await withShortLocks(q, () => q.query(`ALTER TABLE ${t.name} ALTER COLUMN organization_id SET NOT NULL`));

  for (const partition of await partitionsOf(q, t.name)) {
    await buildConcurrently(q, `${partition}_key_next`, `CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS ${partition}_key_next ON ${partition} ${t.key}`);
    if (t.indexById) await buildConcurrently(q, `${partition}_by_id`, `CREATE INDEX CONCURRENTLY IF NOT EXISTS ${partition}_by_id ON ${partition} (id)`);
  }

  await withShortLocks(q, async () => {
    await q.query(PARTITION_LOCK.text);
    await q.query(`ALTER TABLE ${t.name} DROP CONSTRAINT ${t.name}_pkey`);
    for (const partition of await partitionsOf(q, t.name)) {
      if ((await rowsOf(q, RELATION_EXISTS, [`${partition}_key_next`])).length) await q.query(`ALTER TABLE ${partition} ADD CONSTRAINT ${partition}_pkey PRIMARY KEY USING INDEX ${partition}_key_next`);
    }
    await q.query(`ALTER TABLE ${t.name} ADD CONSTRAINT ${t.name}_pkey PRIMARY KEY ${t.key}`);
    if (t.indexById) await q.query(`CREATE INDEX ${t.name}_id ON ${t.name} (id)`);
    if (t.replaces) await q.query(`DROP INDEX IF EXISTS ${t.replaces}`);
    await q.query(`ALTER TABLE ${t.name} DROP CONSTRAINT ${check}`);
  });
}

/** Fills the organization of the rows from id `from` to the table's latest; returns the id after the last one looked at. */
async function fill(q: QueryRunner, t: Table, from: number): Promise<number> {
  const [{ first, last }] = (await q.query(`SELECT coalesce(min(id), 0)::bigint AS first, coalesce(max(id), 0)::bigint AS last FROM ${t.name}`)) as [{ first: string; last: string }];
  let start = Math.max(from, Number(first));
  for (; start <= Number(last); start += BATCH) {
    const window = [start, start + BATCH];
    await untilNoDeadlock(() =>
      q.query(
        `UPDATE ${t.name} AS t SET organization_id = o.organization_id FROM ${t.owner} o
         WHERE o.id = t.${t.via} AND t.id >= $1 AND t.id < $2 AND t.organization_id IS NULL`,
        window,
      ),
    );
    await untilNoDeadlock(() => q.query(`DELETE FROM ${t.name} WHERE id >= $1 AND id < $2 AND organization_id IS NULL`, window));
  }
  return start;
}

/**
 * A batch again when Postgres broke a deadlock by cancelling it: the delivery worker updates
 * several deliveries in one statement, in no order a batch could share.
 */
async function untilNoDeadlock(batch: () => Promise<unknown>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await batch();
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== '40P01' || attempt === 5) throw err;
    }
  }
}

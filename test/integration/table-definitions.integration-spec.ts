import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { getMetadataArgsStorage } from 'typeorm';
import type { DeclaredPersistence, EntityTable, OwnedTable, Table } from '../../src/shared/database/typed-statement.js';
import { modulePersistences } from '../support/module-persistences.js';
import { type SchemaColumn, schemaTables, tableDeclaration } from '../support/table-definitions.js';

/**
 * Each module's tables (its persistence.ts) against the migrated schema: a `table(...)` row has
 * every column of the table, in order, with its type and whether it may be null; a table typed by
 * a TypeORM entity has an entity column for each of the table's columns and no other. A migration
 * that adds, drops, renames or retypes a column fails here until the owner's row says so; the
 * failure prints the declaration the schema asks for.
 */

const isEntityTable = (table: OwnedTable): table is EntityTable => 'entity' in table;

/** The entity's columns, those of the classes it extends included. */
function entityColumns(table: EntityTable): string[] {
  const classes: unknown[] = [];
  for (let c: unknown = table.entity; typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c)) classes.push(c);
  return getMetadataArgsStorage()
    .columns.filter((c) => classes.includes(c.target))
    .map((c) => c.options.name ?? c.propertyName)
    .sort();
}

function entityTableName(table: EntityTable): string | undefined {
  return getMetadataArgsStorage().tables.find((t) => t.target === table.entity)?.name;
}

const declared = (table: Table): SchemaColumn[] => Object.entries(table.columns).map(([name, c]) => ({ name, type: c.type, nullable: c.nullable ?? false }));

describe('table definitions, against the migrated schema', () => {
  let client: pg.Client;
  let persistences: readonly DeclaredPersistence[];
  let schema: Map<string, SchemaColumn[]>;
  before(async () => {
    client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    ({ persistences } = await modulePersistences());
    schema = await schemaTables(client);
  });
  after(() => client.end());

  it("type every column of each table a module's row declares, in order, with its type and nullability", () => {
    const tables = persistences.flatMap((p) => p.tables.filter((t): t is Table => !isEntityTable(t)));
    assert.ok(tables.length >= 40, `only ${tables.length} table rows found`);
    const drifted = tables
      .filter((table) => JSON.stringify(declared(table)) !== JSON.stringify(schema.get(table.name)))
      .map((table) => (schema.has(table.name) ? tableDeclaration(table.name, schema.get(table.name)!) : `${table.name}: no such table`));
    assert.deepEqual(drifted, [], 'the schema asks for these declarations');
  });

  it("name each table an entity types, and give the entity every column of it and no other", () => {
    const tables = persistences.flatMap((p) => p.tables.filter(isEntityTable));
    assert.ok(tables.length >= 9, `only ${tables.length} entity tables found`);
    for (const table of tables) {
      assert.equal(entityTableName(table), table.name);
      assert.deepEqual(entityColumns(table), schema.get(table.name)!.map((c) => c.name).sort(), table.name);
    }
  });
});

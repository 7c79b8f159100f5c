import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import type { DeclaredPersistence, Statement } from '../../src/shared/database/typed-statement.js';
import { describeStatement, pgTypeNames, plannedTables } from '../support/describe-statement.js';
import { modulePersistences, sourcePath } from '../support/module-persistences.js';
import { schemaTables } from '../support/table-definitions.js';

/**
 * Every typed statement of `src` (shared/database/typed-statement.ts), checked by Postgres against
 * the migrated schema without running it: it must parse and answer exactly the columns it declares,
 * each of the declared type, and the tables its plan touches must all belong to the module whose
 * persistence declares it. A column renamed or retyped by a migration, or a module's statement
 * reaching another's table however its text names it, fails here. Running another module's
 * statement is a compile error (test/architecture/statement-ownership.spec.ts).
 */

interface Declared {
  statement: Statement<unknown>;
  /** `src/modules/teams`: the module whose persistence declares it. */
  module: string;
}

describe('typed statements, against the migrated schema', () => {
  let client: pg.Client;
  let declared: readonly Declared[];
  let persistences: readonly DeclaredPersistence[];
  before(async () => {
    client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    ({ statements: declared, persistences } = await modulePersistences());
  });
  after(() => client.end());

  it('parse, and answer exactly the columns and types they declare', async () => {
    assert.ok(declared.length >= 100, `only ${declared.length} typed statements found`);
    const typeNames = await pgTypeNames(client);
    const wrong: string[] = [];
    for (const { statement: { text, columns }, module } of declared) {
      const expected = Object.entries(columns).map(([name, c]) => `${name} ${c.type}`).sort();
      try {
        const described = (await describeStatement(client, text, typeNames)).map((c) => `${c.name} ${c.type}`).sort();
        if (JSON.stringify(described) !== JSON.stringify(expected)) wrong.push(`${module}: declares [${expected.join(', ')}], answers [${described.join(', ')}]:\n${text}`);
      } catch (err) {
        wrong.push(`${module}: ${(err as Error).message}:\n${text}`);
      }
    }
    assert.deepEqual(wrong, [], `${wrong.length} of ${declared.length} statements do not match the schema`);
  });

  it('come from one persistence per module, declared in that module\'s folder, which together own every table once', async () => {
    const modules = persistences.map((p) => p.module);
    assert.deepEqual(modules, [...new Set(modules)], 'a module declares two persistences');
    for (const { module, file } of persistences) assert.ok(sourcePath(file).startsWith(`${module}/`), `${module}'s persistence is declared in ${sourcePath(file)}`);
    const owned = persistences.flatMap((p) => p.tables.map((t) => t.name)).sort();
    assert.deepEqual(owned, [...new Set(owned)], 'a table is owned twice');
    assert.deepEqual(owned, [...(await schemaTables(client)).keys()].sort());
  });

  it('touch only tables of the module that declares them, as Postgres plans them', async () => {
    assert.deepEqual(await crossings(client, persistences, declared), []);
  });

  it('hold a month-partitioned table\'s partitions, which plans name, to that table\'s owner', async () => {
    const runs = { module: 'src/modules/audit', statement: { text: 'SELECT id FROM workflow_runs WHERE organization_id = $1', columns: {} } as unknown as Statement<unknown> };
    const found = await crossings(client, persistences, [runs, { ...runs, module: 'src/modules/cases' }]);
    assert.equal(found.length, 1, found.join('\n'));
    assert.match(found[0]!, /^src\/modules\/audit reaches workflow_runs:/);
  });

  it('would have caught the key rotation that rewrote seven modules\' tables from shared/crypto (before 147424b)', async () => {
    // Its statements, as it built them for each sealed column, declared where that code lived.
    const rotation = ROTATED_BEFORE.map(([table, key, ciphertext]) => ({
      module: 'src/shared/crypto',
      statement: {
        text: `SELECT * FROM ${table} WHERE ${ciphertext} IS NOT NULL AND (${key}) > (${key.split(', ').map((_, i) => `$${i + 1}`).join(', ')}) ORDER BY ${key} LIMIT 100 FOR UPDATE`,
        columns: {},
      } as unknown as Statement<unknown>,
    }));
    const found = await crossings(client, persistences, rotation);
    assert.equal(found.length, ROTATED_BEFORE.length, found.join('\n'));
    assert.ok(found.every((crossing) => crossing.startsWith('src/shared/crypto reaches ')));
  });
});

/** The sealed columns the key rotation read and rewrote itself before each owner published its own. */
const ROTATED_BEFORE = [
  ['workflows', 'id', 'webhook_token_ciphertext'],
  ['subscriptions', 'id', 'secret_ciphertext'],
  ['webhook_verifications', 'workflow_id', 'secret_ciphertext'],
  ['workflow_email_addresses', 'workflow_id', 'secret_ciphertext'],
  ['workflow_forms', 'workflow_id', 'secret_ciphertext'],
  ['organization_secrets', 'organization_id, name', 'value_ciphertext'],
  ['digest_recipients', 'id', 'token_ciphertext'],
  ['sso_configurations', 'organization_id', 'client_secret_ciphertext'],
] as const;

/** Each statement that touches, in its plan, a table its module's persistence does not own. */
async function crossings(client: pg.Client, persistences: readonly DeclaredPersistence[], statements: readonly Declared[]): Promise<string[]> {
  const owned = new Map(persistences.map((p) => [p.module, p.tables.map((t) => t.name)]));
  const found: string[] = [];
  for (const { statement: { text }, module } of statements) {
    const foreign = (await plannedTables(client, text)).filter((table) => !(owned.get(module) ?? []).includes(table));
    if (foreign.length) found.push(`${module} reaches ${foreign.join(', ')}:\n${text}`);
  }
  return found;
}

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { declaredStatements, type Statement } from '../../src/shared/database/typed-statement.js';
import { describeStatement, pgTypeNames, plannedTables } from '../support/describe-statement.js';
import { REPO_ROOT, sourceFiles } from '../support/source-files.js';

/**
 * Every typed statement of `src` (shared/database/typed-statement.ts), checked by Postgres against
 * the migrated schema without running it: it must parse and answer exactly the columns it declares,
 * each of the declared type, and the tables its plan touches must all belong to the module that
 * declares it (.table-owners.cjs). A column renamed or retyped by a migration, or a module's
 * statement reaching another's table however its text names it, fails here.
 */

interface Declared {
  statement: Statement<unknown>;
  /** `src/modules/teams`: the module whose file declares it. */
  module: string;
}

/** Loads, from the build, every source file that declares typed statements, each statement with its module. */
async function loadDeclared(): Promise<Declared[]> {
  const declaring = sourceFiles(join(REPO_ROOT, 'src')).filter((file) => {
    const text = readFileSync(file, 'utf8');
    return text.includes('typed-statement.js') && /\bstatement(Builder)?(<[^>]*>)?\(/.test(text);
  });
  for (const file of declaring) await import(pathToFileURL(join(REPO_ROOT, 'build', relative(REPO_ROOT, file)).replace(/\.ts$/, '.js')).href);
  const buildRoot = join(REPO_ROOT, 'build');
  return declaredStatements().map(({ statement, file }) => {
    const path = relative(buildRoot, file.startsWith('file:') ? fileURLToPath(file) : file);
    const module = /^src\/(?:modules|shared)\/[^/]+/.exec(path)?.[0];
    assert.ok(module, `a statement declared outside src/modules and src/shared (${file}):\n${statement.text}`);
    return { statement, module };
  });
}

describe('typed statements, against the migrated schema', () => {
  let client: pg.Client;
  let declared: Declared[];
  before(async () => {
    client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    declared = await loadDeclared();
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

  it('touch only tables of the module that declares them, as Postgres plans them', async () => {
    assert.deepEqual(await crossings(client, declared), []);
  });

  it('hold a month-partitioned table\'s partitions, which plans name, to that table\'s owner', async () => {
    const runs = { module: 'src/modules/audit', statement: { text: 'SELECT id FROM workflow_runs WHERE organization_id = $1', columns: {} } as unknown as Statement<unknown> };
    const found = await crossings(client, [runs, { ...runs, module: 'src/modules/cases' }]);
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
    const found = await crossings(client, rotation);
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

/** Each statement that touches, in its plan, a table `.table-owners.cjs` does not give to its module. */
async function crossings(client: pg.Client, statements: readonly Declared[]): Promise<string[]> {
  const owners = createRequire(import.meta.url)(join(REPO_ROOT, '.table-owners.cjs')) as Record<string, string[]>;
  const found: string[] = [];
  for (const { statement: { text }, module } of statements) {
    const foreign = (await plannedTables(client, text)).filter((table) => !(owners[module] ?? []).includes(table));
    if (foreign.length) found.push(`${module} reaches ${foreign.join(', ')}:\n${text}`);
  }
  return found;
}

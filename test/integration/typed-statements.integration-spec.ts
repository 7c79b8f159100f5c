import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { declaredStatements } from '../../src/shared/database/typed-statement.js';
import { describeStatement, pgTypeNames } from '../support/describe-statement.js';
import { REPO_ROOT, sourceFiles } from '../support/source-files.js';

/**
 * Every typed statement of `src` (shared/database/typed-statement.ts), described by Postgres
 * against the migrated schema without running it: it must parse, and answer exactly the columns
 * it declares, each of the declared type. A column renamed or retyped by a migration fails here.
 */


/** Loads, from the build, every source file that declares typed statements. */
async function loadDeclaringFiles(): Promise<string[]> {
  const declaring = sourceFiles(join(REPO_ROOT, 'src')).filter((file) => /\bstatement(<[^>]*>)?\(/.test(readFileSync(file, 'utf8')) && readFileSync(file, 'utf8').includes('typed-statement.js'));
  for (const file of declaring) await import(pathToFileURL(join(REPO_ROOT, 'build', relative(REPO_ROOT, file)).replace(/\.ts$/, '.js')).href);
  return declaring.map((file) => relative(REPO_ROOT, file));
}

describe('typed statements, against the migrated schema', () => {
  let client: pg.Client;
  before(async () => {
    client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
  });
  after(() => client.end());

  it('parse, and answer exactly the columns and types they declare', async () => {
    const files = await loadDeclaringFiles();
    const statements = declaredStatements();
    assert.ok(files.length > 0 && statements.length > 0, 'no typed statement found');
    const typeNames = await pgTypeNames(client);
    const wrong: string[] = [];
    for (const { text, columns } of statements) {
      const declared = Object.entries(columns).map(([name, c]) => `${name} ${c.type}`).sort();
      try {
        const described = (await describeStatement(client, text, typeNames)).map((c) => `${c.name} ${c.type}`).sort();
        if (JSON.stringify(described) !== JSON.stringify(declared)) wrong.push(`declares [${declared.join(', ')}], answers [${described.join(', ')}]:\n${text}`);
      } catch (err) {
        wrong.push(`${(err as Error).message}:\n${text}`);
      }
    }
    assert.deepEqual(wrong, [], `${wrong.length} of ${statements.length} statements (from ${files.join(', ')}) do not match the schema`);
  });
});

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { tableOwners } from '../support/module-persistences.js';

/**
 * Every table has one owner, the module whose persistence declares it (its persistence.ts), and
 * only its owner's SQL names it: in any string of its code, statement parts' fragments included.
 * The planner's check of whole statements is typed-statements.integration-spec.ts's.
 */

const root = fileURLToPath(new URL('../../..', import.meta.url));
const owners = await tableOwners();
const MIGRATIONS = 'src/shared/database/migrations';

function tsFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return path === MIGRATIONS ? [] : tsFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

/** The text of every string and template literal of a source file (a template's parts one by one). */
export function stringLiterals(path: string, text: string): string[] {
  const literals: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) literals.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS));
  return literals;
}

const TABLE_CLAUSE = /\b(?:FROM|JOIN|INTO|UPDATE|TABLE|USING|TRUNCATE|REFERENCES)\s+(?:ONLY\s+|IF\s+(?:NOT\s+)?EXISTS\s+)?"?([a-z_][a-z0-9_]*)/g;

/** The tables of `known` that a piece of SQL names after a keyword that takes a table. */
export function tablesNamed(sql: string, known: ReadonlySet<string>): string[] {
  return [...sql.matchAll(TABLE_CLAUSE)].map((m) => m[1]!).filter((name) => known.has(name));
}

/** `src/modules/cases` for any file of the cases module; undefined outside src/modules and src/shared. */
function moduleOf(path: string): string | undefined {
  return /^src\/(?:modules|shared)\/[^/]+(?=\/)/.exec(path)?.[0];
}

function migrationTables(): string[] {
  const text = readdirSync(join(root, MIGRATIONS)).map((name) => readFileSync(join(root, MIGRATIONS, name), 'utf8')).join('\n');
  return [...new Set([...text.matchAll(/CREATE TABLE\s+(?:IF NOT EXISTS\s+)?"?([a-z_][a-z0-9_]*)/g)].map((m) => m[1]!))].sort();
}

describe('table ownership (each module\'s persistence.ts)', () => {
  const ownerOf = new Map(Object.entries(owners).flatMap(([module, tables]) => tables.map((table) => [table, module] as const)));

  it('every table of the migrations has one owner, and the map names no other table', () => {
    const mapped = Object.values(owners).flat().sort();
    assert.deepEqual(mapped, [...new Set(mapped)].sort(), 'a table is owned twice');
    assert.deepEqual(mapped, migrationTables());
  });

  it("no module's SQL names a table another module owns", () => {
    const known = new Set(ownerOf.keys());
    const trespasses = [...tsFiles('src/modules'), ...tsFiles('src/shared')].flatMap((path) => {
      const module = moduleOf(path);
      const literals = stringLiterals(path, readFileSync(join(root, path), 'utf8'));
      const named = new Set(literals.flatMap((sql) => tablesNamed(sql, known)));
      return [...named].filter((table) => ownerOf.get(table) !== module).map((table) => `${path} names ${table} (owned by ${ownerOf.get(table)})`);
    });
    assert.deepEqual(trespasses, []);
  });
});

describe('tablesNamed', () => {
  const known = new Set(['cases', 'workflow_runs', 'outbox_events']);

  it('finds the tables after the keywords that take one, in any clause', () => {
    const sql = 'WITH c AS (INSERT INTO cases (id) VALUES (1)) UPDATE workflow_runs r SET x = 1 FROM c JOIN outbox_events o USING (id)';
    assert.deepEqual(tablesNamed(sql, known), ['cases', 'workflow_runs', 'outbox_events']);
    assert.deepEqual(tablesNamed('DELETE FROM ONLY "cases" WHERE id = $1', known), ['cases']);
  });

  it('ignores words that are no table, and tables named in prose or as a column', () => {
    assert.deepEqual(tablesNamed('SELECT cases, workflow_runs FROM case_counts', known), []);
    assert.deepEqual(tablesNamed('Counts every case from the workflow', known), []);
  });
});

describe('stringLiterals', () => {
  it('reads plain strings and each part of a template, not comments or code', () => {
    const text = "// FROM cases\nconst a = 'FROM cases'; const b = `SELECT ${x} FROM workflow_runs`; cases.from();";
    assert.deepEqual(stringLiterals('a.ts', text), ['FROM cases', 'SELECT ', ' FROM workflow_runs']);
  });
});

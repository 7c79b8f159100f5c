import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/**
 * Every statement src sends to Postgres is a declared one (shared/database/typed-statement.ts, by
 * a module's persistence), which test/integration/typed-statements.integration-spec.ts prepares
 * against the migrated schema: only the three files that run declared statements call a
 * driver's `query()`, and
 * there only with a statement's text or a transaction's own BEGIN, COMMIT and ROLLBACK.
 * PreparedStatements and the statement batches take nothing but a Statement (a compile error
 * otherwise), and TypeORM's entity API is typed by the entities. Migrations are the exception:
 * they are the schema.
 */

const root = fileURLToPath(new URL('../../..', import.meta.url));
const MIGRATIONS = 'src/shared/database/migrations';

/** The files that run declared statements on a driver. */
const RUNNERS = new Set(['src/shared/database/run-statement.ts', 'src/shared/database/prepared-statements.ts', 'src/shared/database/typeorm-transaction-runner.ts']);
const TRANSACTION_CONTROL = new Set(['BEGIN', 'COMMIT', 'ROLLBACK']);

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return path === MIGRATIONS ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

/** Whether `argument`, the first of a `query()` call in a runner, is a declared statement's text (or transaction control). */
function isDeclaredText(argument: ts.Expression | undefined): boolean {
  if (!argument) return false;
  if (ts.isStringLiteralLike(argument)) return TRANSACTION_CONTROL.has(argument.text);
  if (ts.isPropertyAccessExpression(argument)) return argument.name.text === 'text';
  // pg's query config: { name, text, values }, built from a statement's text.
  if (ts.isCallExpression(argument)) return ts.isIdentifier(argument.expression) && argument.expression.text === 'named';
  if (ts.isObjectLiteralExpression(argument)) {
    return argument.properties.some((p) => ts.isPropertyAssignment(p) && p.name.getText() === 'text' && isDeclaredText(p.initializer));
  }
  return false;
}

/** Each `x.query(...)` call of a file that is not a declared statement's run, as `path:line`. */
function undeclaredQueries(path: string): string[] {
  const file = ts.createSourceFile(path, readFileSync(join(root, path), 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 'query') {
      if (!RUNNERS.has(path) || !isDeclaredText(node.arguments[0])) {
        found.push(`${path}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${node.getText().slice(0, 80)}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe('declared statements', () => {
  it('are the only SQL src sends: no query() outside the runners of declared statements', () => {
    assert.deepEqual(sourceFiles('src').flatMap(undeclaredQueries), []);
  });
});

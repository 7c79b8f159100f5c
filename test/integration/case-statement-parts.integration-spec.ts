import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import type { CaseRowView, CaseStatementPart } from '../../src/modules/cases/domain/case-statement-parts.js';
import { caseRowView } from '../../src/modules/cases/infrastructure/case-row-view.sql.js';
import { REPO_ROOT, sourceFiles } from '../support/source-files.js';

/**
 * Other modules' parts of the case statements compose against the view of the case row that the
 * cases module publishes (CaseRowView), never against `cases` columns or an alias of their own
 * choosing: each part is built here with views over aliases no part could guess, inside a
 * statement of its own, and run against the migrated schema (on no rows, rolled back). A part that
 * names a column that is gone, or reads the row through an alias it assumed, fails here.
 */


/** Every `CaseStatementPart` a module's source defines, loaded from the build. */
async function statementParts(): Promise<{ file: string; part: CaseStatementPart }[]> {
  const defining = sourceFiles(join(REPO_ROOT, 'src', 'modules')).filter((file) => /:\s*CaseStatementPart\s*=/.test(readFileSync(file, 'utf8')));
  const found: { file: string; part: CaseStatementPart }[] = [];
  for (const file of defining) {
    const built = join(REPO_ROOT, 'build', relative(REPO_ROOT, file)).replace(/\.ts$/, '.js');
    for (const value of Object.values((await import(pathToFileURL(built).href)) as Record<string, unknown>)) {
      if (value && typeof value === 'object' && 'name' in value && ['created', 'changed', 'keepsCase', 'purgeBefore'].some((k) => k in value)) {
        found.push({ file: relative(REPO_ROOT, file), part: value as CaseStatementPart });
      }
    }
  }
  return found;
}

/** `part`'s CTEs in a statement that defines the CTEs its views read as empty copies of `cases`. */
function statementOf(ctes: string[], partSql: string): string {
  return `WITH ${ctes.map((cte) => `${cte} AS (SELECT * FROM cases WHERE false)`).join(', ')}${partSql} SELECT 1`;
}

describe('case statement parts, against the migrated schema', () => {
  let client: pg.Client;
  before(async () => {
    client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
  });
  after(() => client.end());

  /** Runs `sql` on no rows and rolls it back; answers Postgres' refusal, or null. */
  async function refusal(sql: string): Promise<string | null> {
    await client.query('BEGIN');
    try {
      await client.query(sql);
      return null;
    } catch (err) {
      return (err as Error).message;
    } finally {
      await client.query('ROLLBACK');
    }
  }

  it('read the case row only through the view the cases module publishes', async () => {
    const parts = await statementParts();
    // The parts known today, so the check is not vacuous.
    assert.ok(['outbox', 'report_change', 'case_event_listeners'].every((name) => parts.some(({ part }) => part.name === name)), `found ${parts.map(({ part }) => part.name).join(', ')}`);

    const newCase: CaseRowView = caseRowView('zq_case_new', 'zq_cte_new');
    const beforeRow: CaseRowView = caseRowView('zq_case_before', 'zq_cte_before');
    const changed: CaseRowView = caseRowView('zq_case_changed', 'zq_cte_changed');
    // Literals where the statements have parameters: a part that leaves one unused could not type it alone.
    const eventTypes = `ARRAY['case.created']`;
    const checked: string[] = [];
    for (const { file, part } of parts) {
      const statements = [
        part.created && statementOf(['zq_cte_new'], part.created({ newCase, eventTypes })),
        part.changed &&
          statementOf(['zq_cte_before', 'zq_cte_changed'], part.changed({
            before: beforeRow, changed, moved: 'true', to: `'Closed'`, runStates: `ARRAY['failed']`, runErrors: `ARRAY['x']`, eventTypes, eventDetails: 'ARRAY[NULL]::jsonb[]',
          })),
        part.keepsCase && `SELECT zq_case_kept.id FROM cases zq_case_kept WHERE EXISTS (SELECT 1 ${part.keepsCase(caseRowView('zq_case_kept'))})`,
      ].filter((sql): sql is string => !!sql);
      for (const sql of statements) {
        assert.equal(await refusal(sql), null, `${file}: part "${part.name}":\n${sql}`);
        checked.push(part.name);
      }
    }
    assert.ok(checked.length >= 6, `only ${checked.length} statements checked`);
  });
});

import type { Statement } from './typed-statement.js';

/** What runs SQL: a DataSource, an EntityManager or a QueryRunner of TypeORM's. */
export interface Queryable {
  query(text: string, parameters?: unknown[]): Promise<unknown>;
}

/**
 * Runs any module's `statement` on `on` and answers its rows: for code of src/shared that runs
 * statements its callers own and hand it (purges, caps, batches), never for a module's own reads
 * (.dependency-cruiser.cjs keeps it to src/shared).
 */
export async function runStatement<Row>(on: Queryable, statement: Pick<Statement<Row>, 'text' | 'row'>, parameters: readonly unknown[] = []): Promise<Row[]> {
  const answer = await on.query(statement.text, [...parameters]);
  // TypeORM answers an UPDATE or DELETE with [rows, count]; a row itself is never an array.
  const rows = Array.isArray(answer) && answer.length === 2 && Array.isArray(answer[0]) && typeof answer[1] === 'number' ? (answer[0] as unknown[]) : answer;
  // The one cast: the schema check proves the columns the statement declares.
  return rows as Row[];
}

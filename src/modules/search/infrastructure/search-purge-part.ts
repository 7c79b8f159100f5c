import type { CaseStatementPart, PurgedRowCounts, SqlQuery } from '../../cases/domain/case-statement-parts.js';
import { column } from '../../../shared/database/typed-statement.js';
import { statement } from './persistence.js';

const PURGE_DOCUMENTS = statement(
  `WITH gone AS (DELETE FROM case_search_documents WHERE case_id = ANY($1::bigint[]) RETURNING 1) SELECT count(*)::int AS purged FROM gone`,
  { purged: column.int4 },
);

/**
 * A purged case's document goes with it, in the purge's transaction. The search has no part in
 * the statements that create or change cases: its indexer follows the change feed instead.
 */
async function purgeDocuments(query: SqlQuery, caseIds: readonly number[]): Promise<PurgedRowCounts> {
  const [row] = await query(PURGE_DOCUMENTS, [caseIds]);
  return row!.purged ? { case_search_documents: row!.purged } : {};
}

export const searchPurgePart: CaseStatementPart = { name: 'case_search_documents', purgeBefore: purgeDocuments };

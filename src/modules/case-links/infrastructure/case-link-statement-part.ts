import type { CaseStatementPart, PurgedRowCounts, SqlQuery } from '../../cases/domain/case-statement-parts.js';
import { PURGE_LINKS } from './postgres-case-link-store.js';

/** Adds nothing to the statements that store cases: the links only go with the cases the retention purge deletes. */
export const caseLinkStatementPart: CaseStatementPart = {
  name: 'case_links',
  purgeBefore: async (query: SqlQuery, caseIds: readonly number[], organizationId: number): Promise<PurgedRowCounts> => {
    const [row] = await query(PURGE_LINKS, [organizationId, caseIds]);
    return row!.purged ? { case_links: row!.purged } : {};
  },
};

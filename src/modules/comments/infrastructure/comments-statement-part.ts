import type { CaseStatementPart, PurgedRowCounts, SqlQuery } from '../../cases/domain/case-statement-parts.js';
import { column } from '../../../shared/database/typed-statement.js';
import { statement } from './persistence.js';

/**
 * The comments module's part of the case statements: nothing at intake or on a change; at the
 * retention purge, a closed case's comments (their mails with them), watchers and pending
 * notifications go before the case.
 */
const PURGE_CASE_WORK = statement(
  `WITH comments AS (DELETE FROM case_comments WHERE organization_id = $2 AND case_id = ANY($1::bigint[]) RETURNING 1),
        watchers AS (DELETE FROM case_watchers WHERE organization_id = $2 AND case_id = ANY($1::bigint[]) RETURNING 1),
        batches AS (DELETE FROM notification_batches WHERE organization_id = $2 AND case_id = ANY($1::bigint[]) RETURNING 1)
   SELECT (SELECT count(*) FROM comments)::int AS comments, (SELECT count(*) FROM watchers)::int AS watchers, (SELECT count(*) FROM batches)::int AS batches`,
  { comments: column.int4, watchers: column.int4, batches: column.int4 },
);

async function purgeCaseWork(query: SqlQuery, caseIds: readonly number[], organizationId: number): Promise<PurgedRowCounts> {
  const [row] = await query(PURGE_CASE_WORK, [caseIds, organizationId]);
  const counts: PurgedRowCounts = {};
  if (row!.comments) counts.case_comments = row!.comments;
  if (row!.watchers) counts.case_watchers = row!.watchers;
  if (row!.batches) counts.notification_batches = row!.batches;
  return counts;
}

export const commentsStatementPart: CaseStatementPart = { name: 'comments', purgeBefore: purgeCaseWork };

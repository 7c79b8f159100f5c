import type { CaseRowView, CaseStatementPart, PurgedRowCounts, SqlQuery } from '../../cases/domain/case-statement-parts.js';
import { column } from '../../../shared/database/typed-statement.js';
import { statement } from './persistence.js';

/**
 * The listeners' part of the case statements: one `case_event_handlings` row per event and
 * listener that wants it, written by the statement of the change, so an event exists exactly
 * when its change committed and intake stays one round trip. With no listener registered the
 * cost is a scan of the empty `case_event_listeners`. Test-mode cases emit nothing, as for
 * subscriptions.
 *
 * `c` is the case's row; `types` is the SQL parameter holding the event types (text[]) in the
 * order they happened; `statusFrom` is an SQL expression of the status before the change (NULL
 * for a new case).
 */
function listenerEventsSql(c: CaseRowView, types: string, statusFrom: string): string {
  return `, listener_events AS (
      INSERT INTO case_event_handlings (organization_id, listener, case_id, workflow_id, type, status_from, payload)
      SELECT ${c.organizationId}, l.listener, ${c.id}, ${c.workflowId}, t.type, ${statusFrom}, ${c.payload}
      FROM ${c.from} CROSS JOIN unnest(${types}::text[]) WITH ORDINALITY AS t(type, n)
      JOIN case_event_listeners l ON t.type = ANY (l.events)
      WHERE ${c.isLive}
      ORDER BY t.n, l.listener
    )`;
}

/** A purged case's events go with it, failed ones included (a pending one keeps the case). */
const PURGE_HANDLINGS = statement(
  `WITH gone AS (DELETE FROM case_event_handlings WHERE case_id = ANY($1::bigint[]) RETURNING 1) SELECT count(*)::int AS purged FROM gone`,
  { purged: column.int4 },
);

async function purgeHandlings(query: SqlQuery, caseIds: readonly number[]): Promise<PurgedRowCounts> {
  const [row] = await query(PURGE_HANDLINGS, [caseIds]);
  return row!.purged ? { case_event_handlings: row!.purged } : {};
}

export const caseEventStatementPart: CaseStatementPart = {
  name: 'case_event_listeners',
  created: ({ newCase, eventTypes }) => listenerEventsSql(newCase, eventTypes, 'NULL'),
  changed: ({ before, changed, eventTypes }) => listenerEventsSql(changed, eventTypes, `(SELECT ${before.status} FROM ${before.from})`),
  keepsCase: (c) => `FROM case_event_handlings h WHERE h.case_id = ${c.id} AND h.state = 'pending'`,
  purgeBefore: purgeHandlings,
};

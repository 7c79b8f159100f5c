/**
 * The part of a case statement that writes its lifecycle events for the case-event listeners:
 * one `case_event_handlings` row per event and listener that wants it, in the statement of the
 * change, so an event exists exactly when its change committed and intake stays one round trip.
 * Exported for the cases repository, which composes it; this module alone owns the tables.
 * With no listener registered the cost is a scan of the empty `case_event_listeners`.
 * Test-mode cases emit nothing, as for subscriptions.
 *
 * `caseRow` names a CTE returning the case's row (`RETURNING *`); `types` is the SQL parameter
 * holding the event types (text[]) in the order they happened; `statusFrom` is an SQL
 * expression of the status before the change (NULL for a new case); `payload(c)` builds the
 * case as the API shows it from the row `c`.
 */
export function caseEventListenersSql(caseRow: string, types: string, statusFrom: string, payload: (c: string) => string): string {
  return `, listener_events AS (
      INSERT INTO case_event_handlings (organization_id, listener, case_id, workflow_id, type, status_from, payload)
      SELECT c.organization_id, l.listener, c.id, c.workflow_id, t.type, ${statusFrom}, ${payload('c')}
      FROM ${caseRow} c CROSS JOIN unnest(${types}::text[]) WITH ORDINALITY AS t(type, n)
      JOIN case_event_listeners l ON t.type = ANY (l.events)
      WHERE c.mode = 'live'
      ORDER BY t.n, l.listener
    )`;
}

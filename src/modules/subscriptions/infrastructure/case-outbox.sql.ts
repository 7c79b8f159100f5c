import type { CaseRowView, CaseStatementPart } from '../../cases/domain/case-statement-parts.js';
import { pendingDeliveryOf, purgeCaseEvents } from './delivery-purges.sql.js';

/**
 * The part of a case statement that writes lifecycle events to the outbox, with one delivery
 * per interested subscription, in the same statement as the change. A test-mode case, or an
 * organization with no subscription wanting the event, writes nothing: the only cost on the
 * intake path is one index probe of `subscriptions`. A disabled subscription's delivery is
 * written already ended failed, never sent: `recover` sends it once the subscription is enabled.
 *
 * `c` is the case's row; `types` is the SQL parameter holding the event types (text[]), in the
 * order to send them; `details` (changes only: the intake statement stays as it was) the
 * parameter holding what each event tells besides the case.
 */
function outboxSql(c: CaseRowView, types: string, details?: string): string {
  const wants = (organizationId: string, workflowId: string, t: string) => `
      s.organization_id = ${organizationId} AND s.deleted_at IS NULL
      AND ${t} = ANY (s.events) AND (s.workflow_ids IS NULL OR ${workflowId} = ANY (s.workflow_ids))`;
  const events = details === undefined ? `unnest(${types}::text[]) WITH ORDINALITY AS t(type, n)` : `unnest(${types}::text[], ${details}::jsonb[]) WITH ORDINALITY AS t(type, details, n)`;
  return `, outbox AS (
      INSERT INTO outbox_events (organization_id, workflow_id, case_id, type, payload${details === undefined ? '' : ', details'})
      SELECT ${c.organizationId}, ${c.workflowId}, ${c.id}, t.type, ${c.payload}${details === undefined ? '' : ', t.details'}
      FROM ${c.from} CROSS JOIN ${events}
      WHERE ${c.isLive} AND EXISTS (SELECT 1 FROM subscriptions s WHERE ${wants(c.organizationId, c.workflowId, 't.type')})
      ORDER BY t.n
      RETURNING id, organization_id, workflow_id, case_id, type
    ), deliveries AS (
      INSERT INTO event_deliveries (organization_id, event_id, subscription_id, case_id, state, finished_at)
      SELECT o.organization_id, o.id, s.id, o.case_id,
             CASE WHEN s.disabled_at IS NULL THEN 'pending' ELSE 'failed' END,
             CASE WHEN s.disabled_at IS NOT NULL THEN now() END
      FROM outbox o JOIN subscriptions s ON ${wants('o.organization_id', 'o.workflow_id', 'o.type')}
      ORDER BY o.id, s.id
    )`;
}

/**
 * The outbox's part of the case statements: created and changed cases alike; a delivery still
 * being tried keeps a closed case from the purge, and a purged case's events go first.
 */
export const outboxStatementPart: CaseStatementPart = {
  name: 'outbox',
  created: ({ newCase, eventTypes }) => outboxSql(newCase, eventTypes),
  changed: ({ changed, eventTypes, eventDetails }) => outboxSql(changed, eventTypes, eventDetails),
  keepsCase: pendingDeliveryOf,
  purgeBefore: purgeCaseEvents,
};

import { modulePersistence } from '../../../shared/database/module-persistence.js';
import { column, table } from '../../../shared/database/typed-statement.js';

/**
 * The case-events module's tables, each row as the migrations made it
 * (test/integration/table-definitions.integration-spec.ts), and what declares and runs its
 * statements: no other module's persistence runs them, and no other module may import this file.
 */

export const CASE_EVENT_LISTENERS = table('case_event_listeners', {
  listener: column.text,
  events: column.textArray,
  registered_at: column.timestamptz,
});

export const CASE_EVENT_HANDLINGS = table('case_event_handlings', {
  organization_id: column.int8,
  id: column.int8,
  listener: column.text,
  case_id: column.int8,
  workflow_id: column.int8,
  type: column.text,
  status_from: column.nullable(column.text),
  payload: column.jsonb(),
  occurred_at: column.timestamptz,
  state: column.text,
  attempts: column.int4,
  last_error: column.nullable(column.text),
  enqueued_at: column.nullable(column.timestamptz),
  locked_until: column.nullable(column.timestamptz),
  finished_at: column.nullable(column.timestamptz),
});

export const { statement, rowsOf, firstRowOf } = modulePersistence('src/modules/case-events', [
  CASE_EVENT_LISTENERS, CASE_EVENT_HANDLINGS,
]);

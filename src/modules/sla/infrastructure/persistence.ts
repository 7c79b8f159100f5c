import { modulePersistence } from '../../../shared/database/module-persistence.js';
import { column, table } from '../../../shared/database/typed-statement.js';

/**
 * The sla module's tables, each row as the migrations made it
 * (test/integration/table-definitions.integration-spec.ts), and what declares and runs its
 * statements: no other module's persistence runs them, and no other module may import this file.
 */

export const BUSINESS_CALENDARS = table('business_calendars', {
  organization_id: column.int8,
  name: column.text,
  time_zone: column.text,
  hours: column.jsonb(),
  holidays: column.jsonb(),
  created_at: column.timestamptz,
  updated_at: column.timestamptz,
});

export const SLA_POLICIES = table('sla_policies', {
  organization_id: column.int8,
  workflow_id: column.int8,
  calendar_name: column.text,
  targets: column.jsonb(),
  pause_statuses: column.jsonb(),
  warn_before: column.nullable(column.text),
  created_at: column.timestamptz,
  updated_at: column.timestamptz,
  feed_cursor: column.nullable(column.text),
});

export const SLA_TIMERS = table('sla_timers', {
  organization_id: column.int8,
  case_id: column.int8,
  clock: column.text,
  kind: column.text,
  period_started_at: column.timestamptz,
  workflow_id: column.int8,
  fire_at: column.timestamptz,
  fired_at: column.nullable(column.timestamptz),
  due_at: column.nullable(column.timestamptz),
});

export const { statement, rowsOf, firstRowOf } = modulePersistence('src/modules/sla', [
  BUSINESS_CALENDARS, SLA_POLICIES, SLA_TIMERS,
]);

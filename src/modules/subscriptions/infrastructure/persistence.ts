import { modulePersistence } from '../../../shared/database/module-persistence.js';
import { column, entityTable, table } from '../../../shared/database/typed-statement.js';
import { SubscriptionOrmEntity } from './subscription.orm-entity.js';

/**
 * The subscriptions module's tables, each row as the migrations made it
 * (test/integration/table-definitions.integration-spec.ts), and what declares and runs its
 * statements: no other module's persistence runs them, and no other module may import this file.
 */

export const SUBSCRIPTIONS = entityTable('subscriptions', SubscriptionOrmEntity);

export const OUTBOX_EVENTS = table('outbox_events', {
  id: column.int8,
  public_id: column.uuid,
  organization_id: column.int8,
  workflow_id: column.int8,
  case_id: column.int8,
  type: column.text,
  payload: column.jsonb(),
  created_at: column.timestamptz,
  details: column.nullable(column.jsonb()),
});

export const EVENT_DELIVERIES = table('event_deliveries', {
  id: column.int8,
  event_id: column.int8,
  subscription_id: column.int8,
  case_id: column.int8,
  state: column.text,
  attempts: column.int4,
  next_attempt_at: column.timestamptz,
  enqueued_at: column.nullable(column.timestamptz),
  locked_until: column.nullable(column.timestamptz),
  created_at: column.timestamptz,
  finished_at: column.nullable(column.timestamptz),
  give_up_at: column.timestamptz,
  organization_id: column.int8,
});

export const DELIVERY_ATTEMPTS = table('delivery_attempts', {
  id: column.int8,
  delivery_id: column.int8,
  attempt: column.int4,
  status_code: column.nullable(column.int4),
  error: column.nullable(column.text),
  delivered: column.bool,
  attempted_at: column.timestamptz,
});

export const { statement, statementBuilder, rowsOf, firstRowOf } = modulePersistence('src/modules/subscriptions', [
  SUBSCRIPTIONS, OUTBOX_EVENTS, EVENT_DELIVERIES, DELIVERY_ATTEMPTS,
]);

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { Transaction } from '../../../shared/database/transaction.js';
import { entityManager } from '../../../shared/database/typeorm-transaction-runner.js';
import { column } from '../../../shared/database/typed-statement.js';
import { firstRowOf, rowsOf, statement } from './persistence.js';
import { DeliveryLog } from '../application/subscription-stores.js';
import type { DeliveryAttemptRecord } from '../domain/subscription.js';

const REOPEN = statement(
  `WITH reopened AS (
     UPDATE event_deliveries SET
       next_attempt_at = now(),
       give_up_at = CASE WHEN state = 'pending' THEN give_up_at ELSE now() END,
       enqueued_at = CASE WHEN state = 'pending' THEN enqueued_at END,
       state = 'pending', finished_at = NULL
     WHERE id = $1 AND subscription_id = $2 RETURNING id
   ) SELECT * FROM reopened`,
  { id: column.int8 },
);
const REOPEN_FAILED_SINCE = statement(
  `WITH reopened AS (
     UPDATE event_deliveries SET state = 'pending', finished_at = NULL, next_attempt_at = now(),
       give_up_at = DEFAULT, enqueued_at = NULL, locked_until = NULL
     WHERE subscription_id = $1 AND state = 'failed' AND finished_at >= $2 RETURNING 1
   ) SELECT count(*)::int AS n FROM reopened`,
  { n: column.int4 },
);
const ATTEMPTS = statement(
  `SELECT d.id AS delivery_id, e.public_id, e.type, d.case_id, a.attempt, a.status_code, a.error, a.delivered, a.attempted_at
   FROM delivery_attempts a JOIN event_deliveries d ON d.id = a.delivery_id JOIN outbox_events e ON e.id = d.event_id
   WHERE d.subscription_id = $1 ORDER BY a.id DESC LIMIT $2`,
  {
    delivery_id: column.int8,
    public_id: column.uuid,
    type: column.text,
    case_id: column.int8,
    attempt: column.int4,
    status_code: column.nullable(column.int4),
    error: column.nullable(column.text),
    delivered: column.bool,
    attempted_at: column.timestamptz,
  },
);

@Injectable()
export class PostgresDeliveryLog extends DeliveryLog {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    super();
  }

  async reopen(tx: Transaction, subscriptionId: number, deliveryId: number): Promise<boolean> {
    const reopened = await rowsOf(entityManager(tx), REOPEN, [deliveryId, subscriptionId]);
    return reopened.length > 0;
  }

  async reopenFailedSince(tx: Transaction, subscriptionId: number, since: Date): Promise<number> {
    const row = await firstRowOf(entityManager(tx), REOPEN_FAILED_SINCE, [subscriptionId, since]);
    return row!.n;
  }

  async attempts(subscriptionId: number, limit: number): Promise<DeliveryAttemptRecord[]> {
    const rows = await rowsOf(this.dataSource, ATTEMPTS, [subscriptionId, limit]);
    return rows.map((r) => ({
      deliveryId: Number(r.delivery_id),
      eventId: r.public_id,
      eventType: r.type,
      caseId: Number(r.case_id),
      attempt: r.attempt,
      statusCode: r.status_code,
      error: r.error,
      delivered: r.delivered,
      attemptedAt: r.attempted_at,
    }));
  }
}

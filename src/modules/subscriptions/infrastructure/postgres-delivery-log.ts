import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { Transaction } from '../../../shared/database/transaction.js';
import { entityManager } from '../../../shared/database/typeorm-transaction-runner.js';
import { DeliveryLog } from '../application/subscription-stores.js';
import type { DeliveryAttemptRecord } from '../domain/subscription.js';

@Injectable()
export class PostgresDeliveryLog extends DeliveryLog {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    super();
  }

  async reopen(tx: Transaction, subscriptionId: number, deliveryId: number): Promise<boolean> {
    const reopened = (await entityManager(tx).query(
      `WITH reopened AS (
         UPDATE event_deliveries SET
           next_attempt_at = now(),
           give_up_at = CASE WHEN state = 'pending' THEN give_up_at ELSE now() END,
           enqueued_at = CASE WHEN state = 'pending' THEN enqueued_at END,
           state = 'pending', finished_at = NULL
         WHERE id = $1 AND subscription_id = $2 RETURNING id
       ) SELECT * FROM reopened`,
      [deliveryId, subscriptionId],
    )) as unknown[];
    return reopened.length > 0;
  }

  async reopenFailedSince(tx: Transaction, subscriptionId: number, since: Date): Promise<number> {
    const [row] = (await entityManager(tx).query(
      `WITH reopened AS (
         UPDATE event_deliveries SET state = 'pending', finished_at = NULL, next_attempt_at = now(),
           give_up_at = DEFAULT, enqueued_at = NULL, locked_until = NULL
         WHERE subscription_id = $1 AND state = 'failed' AND finished_at >= $2 RETURNING 1
       ) SELECT count(*)::int AS n FROM reopened`,
      [subscriptionId, since],
    )) as { n: number }[];
    return row!.n;
  }

  async attempts(subscriptionId: number, limit: number): Promise<DeliveryAttemptRecord[]> {
    const rows = (await this.dataSource.query(
      `SELECT d.id AS delivery_id, e.public_id, e.type, d.case_id, a.attempt, a.status_code, a.error, a.delivered, a.attempted_at
       FROM delivery_attempts a JOIN event_deliveries d ON d.id = a.delivery_id JOIN outbox_events e ON e.id = d.event_id
       WHERE d.subscription_id = $1 ORDER BY a.id DESC LIMIT $2`,
      [subscriptionId, limit],
    )) as { delivery_id: string; public_id: string; type: string; case_id: string; attempt: number; status_code: number | null; error: string | null; delivered: boolean; attempted_at: Date }[];
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

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { TransactionRunner } from '../../../shared/database/transaction.js';
import { entityManager } from '../../../shared/database/typeorm-transaction-runner.js';
import { type AttemptResult, type ClaimedDelivery, DeliveryAttempts } from '../domain/delivery-attempts.js';
import { disabledReason } from '../domain/delivery-schedule.js';

/**
 * `event_deliveries` and `delivery_attempts`. A delivery is due when its time has come and no
 * earlier delivery of the same case to the same subscription is still pending: that is how
 * events of one case reach a subscriber in order.
 */
@Injectable()
export class DeliveryRepository extends DeliveryAttempts {
  constructor(@InjectDataSource() private readonly dataSource: DataSource, private readonly transactions: TransactionRunner) {
    super();
  }

  /** Up to `limit` deliveries due now and not yet handed to the queue, oldest first. */
  takeNew(limit: number): Promise<{ id: number; attempts: number }[]> {
    return this.take('d.enqueued_at IS NULL', limit);
  }

  /**
   * Deliveries whose sender's lease ran out (it died mid-send) and that were not handed to the
   * queue since (found through the partial index `event_deliveries_leased`).
   */
  takeExpired(limit: number): Promise<{ id: number; attempts: number }[]> {
    return this.take('d.locked_until < now() AND d.enqueued_at < d.locked_until', limit);
  }

  /** Deliveries handed to the queue more than `graceMs` ago that were never attempted (their job was lost). */
  takeStale(limit: number, graceMs: number): Promise<{ id: number; attempts: number }[]> {
    return this.take(`d.enqueued_at < now() - $2 * interval '1 millisecond' AND (d.locked_until IS NULL OR d.locked_until < now())`, limit, graceMs);
  }

  /** `graceMs` is $2 when `condition` uses it (an unused parameter has no type Postgres can infer). */
  private async take(condition: string, limit: number, graceMs?: number): Promise<{ id: number; attempts: number }[]> {
    const rows = (await this.dataSource.query(
      `WITH taken AS (
         UPDATE event_deliveries SET enqueued_at = now()
         WHERE id IN (
           SELECT d.id FROM event_deliveries d
           WHERE d.state = 'pending' AND d.next_attempt_at <= now() AND ${condition}
             AND NOT EXISTS (SELECT 1 FROM event_deliveries e
                             WHERE e.subscription_id = d.subscription_id AND e.case_id = d.case_id
                               AND e.state = 'pending' AND e.id < d.id)
           ORDER BY d.id LIMIT $1 FOR UPDATE SKIP LOCKED)
         RETURNING id, attempts
       ) SELECT * FROM taken ORDER BY id`,
      graceMs === undefined ? [limit] : [limit, graceMs],
    )) as { id: string; attempts: number }[];
    return rows.map((r) => ({ id: Number(r.id), attempts: r.attempts }));
  }

  async untake(ids: number[]): Promise<void> {
    await this.dataSource.query(`UPDATE event_deliveries SET enqueued_at = NULL WHERE id = ANY($1::bigint[])`, [ids]);
  }

  /**
   * Takes a due delivery for one attempt, under a lease of `leaseMs`. A delivery of a deleted or
   * disabled subscription is closed as failed instead; null when there is nothing to send.
   */
  async claim(id: number, leaseMs: number): Promise<ClaimedDelivery | null> {
    const rows = (await this.dataSource.query(
      `WITH claimed AS (
         UPDATE event_deliveries d SET locked_until = now() + $2 * interval '1 millisecond'
         FROM subscriptions s
         WHERE d.id = $1 AND s.id = d.subscription_id AND d.state = 'pending' AND d.next_attempt_at <= now()
           AND (d.locked_until IS NULL OR d.locked_until < now())
         RETURNING d.id, d.attempts, d.event_id, d.subscription_id, s.url, s.secret_ciphertext,
           CASE WHEN s.previous_secret_expires_at > now() THEN s.previous_secret_ciphertext END AS previous_secret_ciphertext,
           (s.deleted_at IS NOT NULL OR s.disabled_at IS NOT NULL) AS stopped
       )
       SELECT c.*, e.public_id, e.type, e.created_at AS event_at, e.payload::text AS case_json, e.details::text AS details_json
       FROM claimed c JOIN outbox_events e ON e.id = c.event_id`,
      [id, leaseMs],
    )) as {
      id: string;
      attempts: number;
      subscription_id: string;
      url: string;
      secret_ciphertext: string;
      previous_secret_ciphertext: string | null;
      stopped: boolean;
      public_id: string;
      type: string;
      event_at: Date;
      case_json: string;
      details_json: string | null;
    }[];
    const row = rows[0];
    if (!row) return null;
    if (row.stopped) {
      await this.dataSource.query(`UPDATE event_deliveries SET state = 'failed', finished_at = now(), locked_until = NULL WHERE id = $1`, [id]);
      return null;
    }
    return {
      id: Number(row.id),
      attempt: row.attempts + 1,
      eventId: row.public_id,
      eventType: row.type,
      eventAt: row.event_at,
      caseJson: row.case_json,
      detailsJson: row.details_json,
      url: row.url,
      subscriptionId: Number(row.subscription_id),
      secretCiphertext: row.secret_ciphertext,
      previousSecretCiphertext: row.previous_secret_ciphertext,
    };
  }

  /** Keeps the delivery while its attempt is under way (not once the attempt is recorded). */
  async renewLease(delivery: ClaimedDelivery, leaseMs: number): Promise<void> {
    await this.dataSource.query(
      `UPDATE event_deliveries SET locked_until = now() + $3 * interval '1 millisecond'
       WHERE id = $1 AND attempts = $2 AND state = 'pending' AND locked_until IS NOT NULL`,
      [delivery.id, delivery.attempt - 1, leaseMs],
    );
  }

  /**
   * Logs the attempt and moves the delivery on: delivered, retried after `retryInMs`, or
   * failed for good once past its `give_up_at`. The subscription remembers since when it
   * fails, and is disabled once that is longer ago than `disableAfterMs`.
   */
  async recordAttempt(delivery: ClaimedDelivery, result: AttemptResult, retryInMs: number, disableAfterMs: number): Promise<void> {
    await this.transactions.run(async (tx) => {
      const m = entityManager(tx);
      const [attempt] = (await m.query(
        `INSERT INTO delivery_attempts (delivery_id, attempt, status_code, error, delivered) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (delivery_id, attempt) DO NOTHING RETURNING id`,
        [delivery.id, delivery.attempt, result.statusCode, result.error, result.delivered],
      )) as unknown[];
      if (!attempt) return;
      const [updated] = (await m.query(
        `WITH updated AS (
           UPDATE event_deliveries d SET
             attempts = $2,
             state = CASE WHEN $3 THEN 'delivered' WHEN d.give_up_at <= now() THEN 'failed' ELSE 'pending' END,
             finished_at = CASE WHEN $3 OR d.give_up_at <= now() THEN now() END,
             next_attempt_at = now() + $4 * interval '1 millisecond',
             enqueued_at = NULL, locked_until = NULL
           WHERE d.id = $1 RETURNING subscription_id
         ) SELECT * FROM updated`,
        [delivery.id, delivery.attempt, result.delivered, retryInMs],
      )) as { subscription_id: string }[];
      if (result.delivered) {
        await m.query(`UPDATE subscriptions SET failing_since = NULL WHERE id = $1`, [updated!.subscription_id]);
        return;
      }
      // Disabling ends the subscription's waiting deliveries as failed at once (what `recover` sends
      // again); one another worker is sending now is ended by the next claim.
      await m.query(
        `WITH subscription AS (
           UPDATE subscriptions SET failing_since = coalesce(failing_since, now()),
             disabled_at = CASE WHEN failing_since < now() - $2 * interval '1 millisecond' THEN now() END,
             disabled_reason = CASE WHEN failing_since < now() - $2 * interval '1 millisecond' THEN $3::text END
           WHERE id = $1 AND disabled_at IS NULL RETURNING id, disabled_at
         )
         UPDATE event_deliveries d SET state = 'failed', finished_at = now(), enqueued_at = NULL
         FROM subscription s
         WHERE s.disabled_at IS NOT NULL AND d.subscription_id = s.id AND d.state = 'pending'
           AND (d.locked_until IS NULL OR d.locked_until < now())`,
        [updated!.subscription_id, disableAfterMs, disabledReason(disableAfterMs)],
      );
    });
  }
}

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { TransactionRunner } from '../../../shared/database/transaction.js';
import { entityManager } from '../../../shared/database/typeorm-transaction-runner.js';
import { type AttemptResult, type ClaimedDelivery, DeliveryAttempts } from '../domain/delivery-attempts.js';
import { disabledReason } from '../domain/delivery-schedule.js';
import { column } from '../../../shared/database/typed-statement.js';
import { firstRowOf, rowsOf, statement } from './persistence.js';
import { relayTakes } from '../../../shared/database/relay-sql.js';

/** Due deliveries meeting `condition`, up to $1, handed to the queue; `condition` may use $2 (a grace in ms). */
const takeDeliveries = (condition: string) =>
  statement(
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
    { id: column.int8, attempts: column.int4 },
  );
const TAKE = relayTakes('d', '$2', takeDeliveries);
const UNTAKE = statement('UPDATE event_deliveries SET enqueued_at = NULL WHERE id = ANY($1::bigint[])');
const CLAIM = statement(
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
  {
    id: column.int8,
    attempts: column.int4,
    event_id: column.int8,
    subscription_id: column.int8,
    url: column.text,
    secret_ciphertext: column.text,
    previous_secret_ciphertext: column.nullable(column.text),
    stopped: column.bool,
    public_id: column.uuid,
    type: column.text,
    event_at: column.timestamptz,
    case_json: column.text,
    details_json: column.nullable(column.text),
  },
);
const CLOSE_STOPPED = statement(`UPDATE event_deliveries SET state = 'failed', finished_at = now(), locked_until = NULL WHERE id = $1`);
const RENEW_LEASE = statement(
  `UPDATE event_deliveries SET locked_until = now() + $3 * interval '1 millisecond'
   WHERE id = $1 AND attempts = $2 AND state = 'pending' AND locked_until IS NOT NULL`,
);
const LOG_ATTEMPT = statement(
  `INSERT INTO delivery_attempts (delivery_id, attempt, status_code, error, delivered) VALUES ($1, $2, $3, $4, $5)
   ON CONFLICT (delivery_id, attempt) DO NOTHING RETURNING id`,
  { id: column.int8 },
);
const MOVE_ON = statement(
  `WITH updated AS (
     UPDATE event_deliveries d SET
       attempts = $2,
       state = CASE WHEN $3 THEN 'delivered' WHEN d.give_up_at <= now() THEN 'failed' ELSE 'pending' END,
       finished_at = CASE WHEN $3 OR d.give_up_at <= now() THEN now() END,
       next_attempt_at = now() + $4 * interval '1 millisecond',
       enqueued_at = NULL, locked_until = NULL
     WHERE d.id = $1 RETURNING subscription_id
   ) SELECT * FROM updated`,
  { subscription_id: column.int8 },
);
const CLEAR_FAILING = statement('UPDATE subscriptions SET failing_since = NULL WHERE id = $1');
// Disabling ends the subscription's waiting deliveries as failed at once (what `recover` sends
// again); one another worker is sending now is ended by the next claim.
const MARK_FAILING = statement(
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
);

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
    return this.take(TAKE.new, limit);
  }

  /**
   * Deliveries whose sender's lease ran out (it died mid-send) and that were not handed to the
   * queue since (found through the partial index `event_deliveries_leased`).
   */
  takeExpired(limit: number): Promise<{ id: number; attempts: number }[]> {
    return this.take(TAKE.expired, limit);
  }

  /** Deliveries handed to the queue more than `graceMs` ago that were never attempted (their job was lost). */
  takeStale(limit: number, graceMs: number): Promise<{ id: number; attempts: number }[]> {
    return this.take(TAKE.stale, limit, graceMs);
  }

  /** `graceMs` is $2 when the statement uses it (an unused parameter has no type Postgres can infer). */
  private async take(taking: typeof TAKE.new, limit: number, graceMs?: number): Promise<{ id: number; attempts: number }[]> {
    const rows = await rowsOf(this.dataSource, taking, graceMs === undefined ? [limit] : [limit, graceMs]);
    return rows.map((r) => ({ id: Number(r.id), attempts: r.attempts }));
  }

  async untake(ids: number[]): Promise<void> {
    await rowsOf(this.dataSource, UNTAKE, [ids]);
  }

  /**
   * Takes a due delivery for one attempt, under a lease of `leaseMs`. A delivery of a deleted or
   * disabled subscription is closed as failed instead; null when there is nothing to send.
   */
  async claim(id: number, leaseMs: number): Promise<ClaimedDelivery | null> {
    const row = await firstRowOf(this.dataSource, CLAIM, [id, leaseMs]);
    if (!row) return null;
    if (row.stopped) {
      await rowsOf(this.dataSource, CLOSE_STOPPED, [id]);
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
    await rowsOf(this.dataSource, RENEW_LEASE, [delivery.id, delivery.attempt - 1, leaseMs]);
  }

  /**
   * Logs the attempt and moves the delivery on: delivered, retried after `retryInMs`, or
   * failed for good once past its `give_up_at`. The subscription remembers since when it
   * fails, and is disabled once that is longer ago than `disableAfterMs`.
   */
  async recordAttempt(delivery: ClaimedDelivery, result: AttemptResult, retryInMs: number, disableAfterMs: number): Promise<void> {
    await this.transactions.run(async (tx) => {
      const m = entityManager(tx);
      const [attempt] = await rowsOf(m, LOG_ATTEMPT, [delivery.id, delivery.attempt, result.statusCode, result.error, result.delivered]);
      if (!attempt) return;
      const [updated] = await rowsOf(m, MOVE_ON, [delivery.id, delivery.attempt, result.delivered, retryInMs]);
      if (result.delivered) {
        await rowsOf(m, CLEAR_FAILING, [updated!.subscription_id]);
        return;
      }
      await rowsOf(m, MARK_FAILING, [updated!.subscription_id, disableAfterMs, disabledReason(disableAfterMs)]);
    });
  }
}

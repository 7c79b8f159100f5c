import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { NOTIFICATION_KINDS, type NotificationKind } from '../../cases/application/case-notifications.js';
import { CaseMailOutbox, type ClaimedBatch, type ClaimedReply } from '../application/comment-ports.js';
import { GIVE_UP_AFTER_MS } from '../domain/mail-retries.js';
import { preferenceOf } from '../domain/notification.js';
import { TransactionRunner } from '../../../shared/database/transaction.js';
import { column, columnsOf } from '../../../shared/database/typed-statement.js';
import { entityManager } from '../../../shared/database/typeorm-transaction-runner.js';
import { COMMENT_MAILS, rowsOf, statement } from './persistence.js';

/** Items a notification mail lists; more are counted, not listed (a flood of events makes one bounded mail). */
const ITEMS_PER_MAIL = 20;

/** Each kind's switch in notification_preferences (a column name), as JSON: `{"requester_replied": "watched", ...}`. */
const SWITCH_OF_KIND = JSON.stringify(Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, preferenceOf(kind)])));

/**
 * A batch's items as a claim takes them. Items of a kind the person has turned off since they
 * were queued (PUT /me/notifications, an unsubscribe link) are deleted first, unsent. The mail
 * lists the oldest ITEMS_PER_MAIL; it is the last chance once the oldest item waiting has waited
 * GIVE_UP_AFTER_MS: failures move the batch's due time, never its items' age, so a batch the
 * relay keeps refusing is given up after the retries mail-retries.ts describes.
 */
const CLAIM_ITEMS = statement(
  `WITH off AS (
     DELETE FROM notification_items i USING notification_preferences p
     WHERE i.organization_id = $1 AND i.user_id = $2 AND i.case_id = $3 AND p.organization_id = $1 AND p.user_id = $2
       AND (to_jsonb(p) ->> ($5::jsonb ->> i.kind))::boolean IS FALSE
     RETURNING i.id
   )
   SELECT id, kind, summary, count(*) OVER () AS total, min(created_at) OVER () < now() - $6 * interval '1 millisecond' AS last_chance
   FROM notification_items
   WHERE organization_id = $1 AND user_id = $2 AND case_id = $3 AND id NOT IN (SELECT id FROM off)
   ORDER BY id LIMIT $4`,
  { id: column.int8, kind: column.textOf<NotificationKind>(), summary: column.text, total: column.int8, last_chance: column.bool },
);
const CLAIM_REPLIES = statement(
  `UPDATE comment_mails m SET attempts = m.attempts + 1, locked_until = now() + $2 * interval '1 millisecond'
   FROM case_comments c
   WHERE (m.organization_id, m.comment_id) IN (
       SELECT organization_id, comment_id FROM comment_mails
       WHERE status = 'queued' AND next_attempt_at <= now() AND (locked_until IS NULL OR locked_until < now())
       ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED)
     AND c.organization_id = m.organization_id AND c.id = m.comment_id
   RETURNING m.organization_id, m.comment_id, m.from_address, m.to_addresses, m.subject, m.message_id, m.in_reply_to, m.thread, m.attempts,
             m.created_at < now() - $3 * interval '1 millisecond' AS last_chance, c.body, c.author_name`,
  {
    ...columnsOf(COMMENT_MAILS, 'organization_id', 'comment_id', 'from_address', 'to_addresses', 'subject', 'message_id', 'in_reply_to', 'thread', 'attempts'),
    last_chance: column.bool,
    body: column.text,
    author_name: column.text,
  },
);
const RENEW_REPLY = statement(
  `UPDATE comment_mails SET locked_until = now() + $4 * interval '1 millisecond'
   WHERE organization_id = $1 AND comment_id = $2 AND attempts = $3 AND status = 'queued' AND locked_until IS NOT NULL`,
);
const REPLY_SENT = statement(
  `UPDATE comment_mails SET status = 'sent', sent_at = now(), locked_until = NULL, error = NULL
   WHERE organization_id = $1 AND comment_id = $2 AND attempts = $3 AND status = 'queued'`,
);
const REPLY_NOT_SENT = statement(
  `UPDATE comment_mails SET locked_until = NULL, error = $5,
     status = CASE WHEN $4::bigint IS NULL THEN 'failed' ELSE 'queued' END,
     next_attempt_at = CASE WHEN $4::bigint IS NULL THEN next_attempt_at ELSE now() + $4::bigint * interval '1 millisecond' END
   WHERE organization_id = $1 AND comment_id = $2 AND attempts = $3 AND status = 'queued'`,
);
const CLAIM_BATCHES = statement(
  `UPDATE notification_batches b SET attempts = b.attempts + 1, locked_until = now() + $2 * interval '1 millisecond'
   WHERE (b.organization_id, b.user_id, b.case_id) IN (
       SELECT organization_id, user_id, case_id FROM notification_batches
       WHERE due_at <= now() AND (locked_until IS NULL OR locked_until < now())
       ORDER BY due_at LIMIT $1 FOR UPDATE SKIP LOCKED)
   RETURNING b.organization_id, b.user_id, b.case_id, b.attempts`,
  { organization_id: column.int8, user_id: column.int8, case_id: column.int8, attempts: column.int4 },
);
const RENEW_BATCH = statement(
  `UPDATE notification_batches SET locked_until = now() + $5 * interval '1 millisecond'
   WHERE organization_id = $1 AND user_id = $2 AND case_id = $3 AND attempts = $4 AND locked_until IS NOT NULL`,
);
const RETRY_BATCH = statement(
  `UPDATE notification_batches SET locked_until = NULL, due_at = now() + $5 * interval '1 millisecond'
   WHERE organization_id = $1 AND user_id = $2 AND case_id = $3 AND attempts = $4`,
);

/**
 * The items the attempt covered go, exactly those (an item with a lower id may commit after the
 * claim: it waits for the next mail); the batch stays due (`dueAgain`) when others wait.
 * `dueAgain` may use $6 (the batch window in ms).
 */
const settleBatch = (dueAgain: string, lastSent: string) =>
  statement(
    `WITH gone AS (
       DELETE FROM notification_items WHERE organization_id = $1 AND user_id = $2 AND case_id = $3 AND id = ANY($5::bigint[])
     )
     UPDATE notification_batches b SET locked_until = NULL, attempts = 0, last_sent_at = ${lastSent},
       due_at = CASE WHEN EXISTS (SELECT 1 FROM notification_items i WHERE i.organization_id = $1 AND i.user_id = $2 AND i.case_id = $3 AND NOT (i.id = ANY($5::bigint[])))
                     THEN ${dueAgain} END
     WHERE organization_id = $1 AND user_id = $2 AND case_id = $3 AND attempts = $4`,
  );
/**
 * Taken before a settle, in its transaction: a transaction queueing an item for the batch holds
 * this row (its upsert) until it commits, and the settle's own snapshot, taken once the row is
 * ours, then sees that item. Within the settle statement alone, a wait for the row would end with
 * the row's new version but the statement's older snapshot of the items: the batch would be left
 * not due with the new item in it, never mailed.
 */
const LOCK_BATCH = statement('SELECT FROM notification_batches WHERE organization_id = $1 AND user_id = $2 AND case_id = $3 FOR UPDATE');
const SETTLE_SENT = settleBatch(`now() + $6 * interval '1 millisecond'`, 'now()');
const SETTLE_GIVEN_UP = settleBatch('now()', 'last_sent_at');

/**
 * `comment_mails` and `notification_batches` for the worker: due rows are taken under a lease
 * (SKIP LOCKED, so workers share them), and a sender's lease that ran out (it died mid-send)
 * makes the row due again for any worker. A row's state only changes for the attempt that holds it.
 */
@Injectable()
export class PostgresCaseMailOutbox extends CaseMailOutbox {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly transactions: TransactionRunner,
  ) {
    super();
  }

  async claimReplies(limit: number, leaseMs: number): Promise<ClaimedReply[]> {
    const rows = await rowsOf(this.db, CLAIM_REPLIES, [limit, leaseMs, GIVE_UP_AFTER_MS]);
    return rows.map((r) => ({
      organizationId: Number(r.organization_id),
      commentId: Number(r.comment_id),
      from: r.from_address,
      to: r.to_addresses,
      subject: r.subject,
      messageId: r.message_id,
      inReplyTo: r.in_reply_to,
      references: r.thread,
      body: r.body,
      authorName: r.author_name,
      attempt: r.attempts,
      lastChance: r.last_chance,
    }));
  }

  async renewReply(mail: ClaimedReply, leaseMs: number): Promise<void> {
    await rowsOf(this.db, RENEW_REPLY, [mail.organizationId, mail.commentId, mail.attempt, leaseMs]);
  }

  async replySent(mail: ClaimedReply): Promise<void> {
    await rowsOf(this.db, REPLY_SENT, [mail.organizationId, mail.commentId, mail.attempt]);
  }

  async replyNotSent(mail: ClaimedReply, delayMs: number | null, error: string): Promise<void> {
    await rowsOf(this.db, REPLY_NOT_SENT, [mail.organizationId, mail.commentId, mail.attempt, delayMs, error]);
  }

  async claimBatches(limit: number, leaseMs: number): Promise<ClaimedBatch[]> {
    const rows = await rowsOf(this.db, CLAIM_BATCHES, [limit, leaseMs]);
    const batches: ClaimedBatch[] = [];
    for (const r of rows) {
      const items = await rowsOf(this.db, CLAIM_ITEMS, [r.organization_id, r.user_id, r.case_id, ITEMS_PER_MAIL, SWITCH_OF_KIND, GIVE_UP_AFTER_MS]);
      batches.push({
        organizationId: Number(r.organization_id),
        userId: Number(r.user_id),
        caseId: Number(r.case_id),
        attempt: r.attempts,
        lastChance: items[0]?.last_chance ?? false,
        items: items.map((i) => ({ kind: i.kind, summary: i.summary })),
        itemIds: items.map((i) => Number(i.id)),
        more: Number(items[0]?.total ?? 0) - items.length,
      });
    }
    return batches;
  }

  async renewBatch(batch: ClaimedBatch, leaseMs: number): Promise<void> {
    await rowsOf(this.db, RENEW_BATCH, [batch.organizationId, batch.userId, batch.caseId, batch.attempt, leaseMs]);
  }

  async batchSent(batch: ClaimedBatch, windowMs: number): Promise<void> {
    await this.settle(batch, SETTLE_SENT, [windowMs]);
  }

  async batchNotSent(batch: ClaimedBatch, delayMs: number | null): Promise<void> {
    if (delayMs === null) {
      await this.settle(batch, SETTLE_GIVEN_UP, []);
      return;
    }
    await rowsOf(this.db, RETRY_BATCH, [batch.organizationId, batch.userId, batch.caseId, batch.attempt, delayMs]);
  }

  /** Runs a settle statement ($1 to $5 the batch's, `more` after them) once the batch's row is locked (LOCK_BATCH). */
  private async settle(batch: ClaimedBatch, settle: typeof SETTLE_SENT, more: unknown[]): Promise<void> {
    const key = [batch.organizationId, batch.userId, batch.caseId];
    await this.transactions.run(async (tx) => {
      await rowsOf(entityManager(tx), LOCK_BATCH, key);
      await rowsOf(entityManager(tx), settle, [...key, batch.attempt, batch.itemIds, ...more]);
    });
  }
}

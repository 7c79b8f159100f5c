import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { SignInMailOutbox, type SignInMailRef } from '../application/sign-in-mail-outbox.js';
import { type ClaimedSignInMail, GIVE_UP_AFTER_MS, type SignInMailKind } from '../domain/sign-in-mail.js';
import { column } from '../../../shared/database/typed-statement.js';
import { firstRowOf, rowsOf, statement } from './persistence.js';
import { toUser, USER_ROW } from './postgres-people-store.js';
import { relayTakes } from '../../../shared/database/relay-sql.js';

/** Due mails meeting `condition`, up to $1, handed to the queue; `condition` may use $2 (a grace in ms). */
const takeMails = (condition: string) =>
  statement(
    `UPDATE sign_in_mails SET enqueued_at = now()
     WHERE (organization_id, id) IN (
       SELECT m.organization_id, m.id FROM sign_in_mails m
       WHERE m.next_attempt_at <= now() AND ${condition}
       ORDER BY m.next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED)
     RETURNING organization_id, id, attempts`,
    { organization_id: column.int8, id: column.int8, attempts: column.int4 },
  );
const TAKE = relayTakes('m', '$2', takeMails);
const UNTAKE = statement('UPDATE sign_in_mails SET enqueued_at = NULL WHERE (organization_id, id) IN (SELECT * FROM unnest($1::bigint[], $2::bigint[]))');
const CLAIM = statement(
  `WITH claimed AS (
     UPDATE sign_in_mails SET attempts = attempts + 1, locked_until = now() + $3 * interval '1 millisecond'
     WHERE organization_id = $1 AND id = $2 AND next_attempt_at <= now() AND (locked_until IS NULL OR locked_until < now())
     RETURNING organization_id, id, user_id, kind, attempts, created_at < now() - $4 * interval '1 millisecond' AS last_chance
   )
   SELECT c.id AS mail_id, c.kind, c.attempts, c.last_chance, u.id, u.organization_id, u.email, u.role, u.status, u.created_at, u.last_seen_at
   FROM claimed c JOIN users u ON u.organization_id = c.organization_id AND u.id = c.user_id`,
  { ...USER_ROW, mail_id: column.int8, kind: column.textOf<SignInMailKind>(), attempts: column.int4, last_chance: column.bool },
);
const RENEW_LEASE = statement(
  `UPDATE sign_in_mails SET locked_until = now() + $4 * interval '1 millisecond'
   WHERE organization_id = $1 AND id = $2 AND attempts = $3 AND locked_until IS NOT NULL`,
);
const REMOVE = statement('DELETE FROM sign_in_mails WHERE organization_id = $1 AND id = $2');
const RETRY = statement(
  `UPDATE sign_in_mails SET next_attempt_at = now() + $4 * interval '1 millisecond', enqueued_at = NULL, locked_until = NULL
   WHERE organization_id = $1 AND id = $2 AND attempts = $3`,
);

/** `sign_in_mails` for the worker: the relay's hand-over (as for event deliveries) and the sender's attempts. */
@Injectable()
export class PostgresSignInMailOutbox extends SignInMailOutbox {
  constructor(@InjectDataSource() private readonly db: DataSource) {
    super();
  }

  /** Due mails not yet handed to the queue. */
  takeNew(limit: number): Promise<SignInMailRef[]> {
    return this.take(TAKE.new, [limit]);
  }

  /** Mails whose sender's lease ran out (it died mid-send) and that were not handed to the queue since. */
  takeExpired(limit: number): Promise<SignInMailRef[]> {
    return this.take(TAKE.expired, [limit]);
  }

  /** Mails handed to the queue more than `graceMs` ago that no sender holds (their job was lost). */
  takeStale(limit: number, graceMs: number): Promise<SignInMailRef[]> {
    return this.take(TAKE.stale, [limit, graceMs]);
  }

  async untake(refs: SignInMailRef[]): Promise<void> {
    await rowsOf(this.db, UNTAKE, [refs.map((r) => r.organizationId), refs.map((r) => r.id)]);
  }

  async claim(ref: SignInMailRef, leaseMs: number): Promise<ClaimedSignInMail | undefined> {
    const row = await firstRowOf(this.db, CLAIM, [ref.organizationId, ref.id, leaseMs, GIVE_UP_AFTER_MS]);
    return row && { organizationId: ref.organizationId, id: Number(row.mail_id), kind: row.kind, attempt: row.attempts, lastChance: row.last_chance, user: toUser(row) };
  }

  async renewLease(mail: ClaimedSignInMail, leaseMs: number): Promise<void> {
    await rowsOf(this.db, RENEW_LEASE, [mail.organizationId, mail.id, mail.attempt, leaseMs]);
  }

  async remove(mail: ClaimedSignInMail): Promise<void> {
    await rowsOf(this.db, REMOVE, [mail.organizationId, mail.id]);
  }

  async retry(mail: ClaimedSignInMail, delayMs: number): Promise<void> {
    await rowsOf(this.db, RETRY, [mail.organizationId, mail.id, mail.attempt, delayMs]);
  }

  private async take(taking: typeof TAKE.new, parameters: unknown[]): Promise<SignInMailRef[]> {
    const rows = await rowsOf(this.db, taking, parameters);
    return rows.map((r) => ({ organizationId: Number(r.organization_id), id: Number(r.id), attempts: r.attempts }));
  }
}

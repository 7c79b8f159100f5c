import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { Env } from '../../../shared/config/env.js';
import { CAP_COUNT, capCountSql, type OrganizationCap, storeWithinCap } from '../../../shared/database/organization-caps.js';
import type { Transaction } from '../../../shared/database/transaction.js';
import { column, columnsOf, type RowOf } from '../../../shared/database/typed-statement.js';
import { DIGESTS, firstRowOf, prepared, rowsOf, statement } from './persistence.js';
import { entityManager } from '../../../shared/database/typeorm-transaction-runner.js';
import type { Digest, Period, ScheduledDigest } from '../domain/digest.js';
import { type ClaimedSend, DigestStore, type ManualSendAnswer, type NewDigest, type NewRecipient, type SendRecipient } from '../application/digest.ports.js';

const SCHEDULED_DIGEST_ROW = columnsOf(DIGESTS, 'id', 'organization_id', 'schedule', 'hour_utc', 'weekday', 'recipients', 'workflow_ids', 'created_at', 'last_sent_at', 'last_failed_at', 'last_error');
const DIGEST_ROW = { ...SCHEDULED_DIGEST_ROW, confirmed_recipients: column.textArray, unsubscribed_recipients: column.textArray };
type ScheduledDigestRow = RowOf<typeof SCHEDULED_DIGEST_ROW>;
type DigestRow = RowOf<typeof DIGEST_ROW>;

/** The organization's recipient rows of the digest's addresses (`r`), `where` they are so. */
const recipientsOf = (where: string) => `
  SELECT r.* FROM digest_recipients r
  WHERE r.organization_id = d.organization_id AND lower(r.address) IN (SELECT lower(a) FROM unnest(d.recipients) a) AND ${where}`;

/** The digest's addresses, in its order, whose recipient row is so. */
const addressesWhere = (where: string) => `ARRAY(
  SELECT a.address FROM unnest(d.recipients) WITH ORDINALITY a(address, n)
  WHERE lower(a.address) IN (SELECT lower(r.address) FROM (${recipientsOf(where)}) r) ORDER BY a.n)`;

const SCHEDULED_DIGEST_COLUMNS = `d.id, d.organization_id, d.schedule, d.hour_utc, d.weekday, d.recipients, d.workflow_ids, d.created_at,
  d.last_sent_at, d.last_failed_at, d.last_error`;

const DIGEST_COLUMNS = `${SCHEDULED_DIGEST_COLUMNS},
  ${addressesWhere('r.confirmed_at IS NOT NULL')} AS confirmed_recipients,
  ${addressesWhere('r.unsubscribed_at IS NOT NULL')} AS unsubscribed_recipients`;

const DIGESTS_CAP: OrganizationCap = { what: 'digests', count: statement(capCountSql('digests'), CAP_COUNT), setting: 'MAX_DIGESTS_PER_ORGANIZATION' };

/**
 * Addresses new to the organization are invited; so are those that never answered, when they were last asked long
 * enough ago ($10 ms) and are not being asked right now. Only if the digest's row (`digest`, a CTE answering its
 * `id`) was written.
 */
const inviteSql = (digest: string) => `
    INSERT INTO digest_recipients AS r (organization_id, address, token_hash, token_ciphertext)
    SELECT $1, n.address, n.token_hash, n.token_ciphertext FROM ${digest}, unnest($7::text[], $8::bytea[], $9::text[]) AS n(address, token_hash, token_ciphertext)
    ON CONFLICT (organization_id, lower(address)) DO UPDATE
    SET invited_at = now(), invitation_state = 'pending', invitation_claimed_at = NULL, invitation_attempts = 0, invitation_error = NULL
    WHERE r.confirmed_at IS NULL AND r.unsubscribed_at IS NULL AND r.invitation_state <> 'pending'
      AND r.invited_at < now() - $10 * interval '1 millisecond'`;

const CREATE_DIGEST = statement(
  `
  WITH inserted AS (
    INSERT INTO digests (organization_id, schedule, hour_utc, weekday, recipients, workflow_ids)
    VALUES ($1, $2, $3, $4, $5, $6)
    RETURNING id
  ), invited AS (${inviteSql('inserted')}
  )
  SELECT id FROM inserted`,
  { id: column.int8 },
);

/**
 * Periods that ended under the new schedule before the change ($12, $13) are recorded as skipped: claimed by no
 * worker, so the change sends no catch-up of periods the digest never had.
 */
const UPDATE_DIGEST = statement(
  `
  WITH updated AS (
    UPDATE digests SET schedule = $2, hour_utc = $3, weekday = $4, recipients = $5, workflow_ids = $6
    WHERE organization_id = $1 AND id = $11
    RETURNING id
  ), invited AS (${inviteSql('updated')}
  ), passed AS (
    INSERT INTO digest_sends (digest_id, kind, period_start, period_end, state, claimed_at, attempts, sent_at)
    SELECT updated.id, 'scheduled', p.start, p.end_, 'skipped', NULL, 0, now() FROM updated, unnest($12::timestamptz[], $13::timestamptz[]) AS p(start, end_)
    ON CONFLICT (digest_id, period_end) WHERE kind = 'scheduled' DO NOTHING
  )
  SELECT id FROM updated`,
  { id: column.int8 },
);

/**
 * Refused while a manual send of the digest is unsent, or within the spacing ($4 ms) of the last
 * one asked for. The update locks the digest's row, so of two calls at once the second sees the
 * first's time and is refused. Answers, when refused, the seconds left of the spacing.
 */
const ADD_MANUAL_SEND = statement(
  `
  WITH allowed AS (
    UPDATE digests SET manual_send_at = now()
    WHERE id = $1 AND (manual_send_at IS NULL OR manual_send_at <= now() - $4 * interval '1 millisecond')
      AND NOT EXISTS (SELECT 1 FROM digest_sends WHERE digest_id = $1 AND kind = 'manual' AND state = 'sending')
    RETURNING id
  ), queued AS (
    INSERT INTO digest_sends (digest_id, kind, period_start, period_end, claimed_at, attempts)
    SELECT id, 'manual', $2, $3, NULL, 0 FROM allowed
    RETURNING id
  )
  SELECT (SELECT count(*) FROM queued)::int AS queued,
         ceil(extract(epoch FROM d.manual_send_at + $4 * interval '1 millisecond' - now()))::int AS spacing_left_s
  FROM digests d WHERE d.id = $1`,
  { queued: column.int4, spacing_left_s: column.nullable(column.int4) },
);

/** Run prepared, or in the caller's transaction. */
const FIND_DIGEST = statement(`SELECT ${DIGEST_COLUMNS} FROM digests d WHERE d.organization_id = $1 AND d.id = $2`, DIGEST_ROW);
// As a SELECT: TypeORM answers a bare DELETE with [rows, count].
const DELETE_DIGEST = statement(`WITH deleted AS (DELETE FROM digests WHERE organization_id = $1 AND id = $2 RETURNING id) SELECT id FROM deleted`, { id: column.int8 });
const LIST_DIGESTS = statement(`SELECT ${DIGEST_COLUMNS} FROM digests d WHERE d.organization_id = $1 ORDER BY d.id`, DIGEST_ROW);
const ALL_DIGESTS = statement(`SELECT ${SCHEDULED_DIGEST_COLUMNS} FROM digests d ORDER BY d.id`, SCHEDULED_DIGEST_ROW);

const CLAIM_PERIODS = statement(
  `INSERT INTO digest_sends (digest_id, kind, period_start, period_end)
       SELECT $1, 'scheduled', p.start, p.end_ FROM unnest($2::timestamptz[], $3::timestamptz[]) AS p(start, end_)
       ON CONFLICT (digest_id, period_end) WHERE kind = 'scheduled' DO NOTHING
       RETURNING id`,
  { id: column.int8 },
);
const CLAIM_UNSENT = statement(
  `UPDATE digest_sends SET claimed_at = now(), attempts = attempts + 1
       WHERE id IN (SELECT id FROM digest_sends
                    WHERE state = 'sending' AND (claimed_at IS NULL OR claimed_at < now() - $1 * power(2, greatest(attempts - 1, 0)) * interval '1 millisecond')
                    ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING id`,
  { id: column.int8 },
);
const SENDS = statement(
  `SELECT s.id AS send_id, s.attempts, s.last_error AS send_error, s.period_start, s.period_end, ${SCHEDULED_DIGEST_COLUMNS},
         (SELECT coalesce(json_agg(json_build_object('id', r.id, 'address', r.address, 'token', r.unsubscribe_token_ciphertext) ORDER BY r.id), '[]'::json)
          FROM (${recipientsOf('r.confirmed_at IS NOT NULL AND r.id <> ALL (s.delivered_to)')}) r) AS pending_recipients
       FROM digest_sends s JOIN digests d ON d.id = s.digest_id WHERE s.id = ANY($1::bigint[]) ORDER BY s.id`,
  {
    ...SCHEDULED_DIGEST_ROW,
    send_id: column.int8,
    attempts: column.int4,
    send_error: column.nullable(column.text),
    period_start: column.timestamptz,
    period_end: column.timestamptz,
    pending_recipients: column.json<{ id: number; address: string; token: string }[]>(),
  },
);
const MARK_DELIVERED = statement(
  `WITH delivered AS (UPDATE digest_sends SET delivered_to = array_append(delivered_to, $2::bigint) WHERE id = $1 RETURNING digest_id)
       UPDATE digests d SET last_sent_at = now() FROM delivered WHERE d.id = delivered.digest_id`,
);
const MARK_SENT = statement(`UPDATE digest_sends SET state = CASE WHEN cardinality(delivered_to) > 0 THEN 'sent' ELSE 'skipped' END, sent_at = now() WHERE id = $1`);
const MARK_ATTEMPT_FAILED = statement(
  `WITH failed AS (
         UPDATE digest_sends SET last_error = $2, state = CASE WHEN $3::boolean THEN 'failed' ELSE state END WHERE id = $1 RETURNING digest_id)
       UPDATE digests d SET last_failed_at = now(), last_error = $2 FROM failed WHERE d.id = failed.digest_id AND $3::boolean`,
);

/** A manual send unsent after the spacing (the relay is failing): asked to come back in a minute. */
const UNSENT_RETRY_AFTER_S = 60;

@Injectable()
export class PostgresDigestStore extends DigestStore {
  private readonly prepared: ReturnType<typeof prepared>;

  constructor(@InjectDataSource() dataSource: DataSource, private readonly env: Env) {
    super();
    this.prepared = prepared(dataSource);
  }

  async create(tx: Transaction, organizationId: number, d: NewDigest, recipients: readonly NewRecipient[], invitationSpacingMs: number): Promise<Digest> {
    const id = await storeWithinCap(tx, this.env, organizationId, DIGESTS_CAP, async (m) => {
      const row = await firstRowOf(m, CREATE_DIGEST, digestParams(organizationId, d, recipients, invitationSpacingMs));
      return Number(row!.id);
    });
    return (await this.find(organizationId, id, tx))!;
  }

  async update(tx: Transaction, organizationId: number, id: number, d: NewDigest, recipients: readonly NewRecipient[], invitationSpacingMs: number, passed: readonly Period[]): Promise<Digest | null> {
    const updated = await rowsOf(entityManager(tx), UPDATE_DIGEST, [
      ...digestParams(organizationId, d, recipients, invitationSpacingMs), id, passed.map((p) => p.start), passed.map((p) => p.end),
    ]);
    return updated.length > 0 ? this.find(organizationId, id, tx) : null;
  }

  async list(organizationId: number): Promise<Digest[]> {
    return (await this.prepared.rows(LIST_DIGESTS, [organizationId])).map(toDigest);
  }

  async find(organizationId: number, id: number, tx?: Transaction): Promise<Digest | null> {
    const [row] = tx ? await rowsOf(entityManager(tx), FIND_DIGEST, [organizationId, id]) : await this.prepared.rows(FIND_DIGEST, [organizationId, id]);
    return row ? toDigest(row) : null;
  }

  async delete(tx: Transaction, organizationId: number, id: number): Promise<boolean> {
    return (await rowsOf(entityManager(tx), DELETE_DIGEST, [organizationId, id])).length > 0;
  }

  async all(): Promise<ScheduledDigest[]> {
    return (await this.prepared.rows(ALL_DIGESTS, [])).map(toScheduledDigest);
  }

  async claimPeriods(digestId: number, periods: readonly Period[]): Promise<number[]> {
    const rows = await this.prepared.rows(CLAIM_PERIODS, [digestId, periods.map((p) => p.start), periods.map((p) => p.end)]);
    return rows.map((r) => Number(r.id));
  }

  async addManualSend(tx: Transaction, digestId: number, period: Period, spacingMs: number): Promise<ManualSendAnswer> {
    const row = await firstRowOf(entityManager(tx), ADD_MANUAL_SEND, [digestId, period.start, period.end, spacingMs]);
    if (!row || row.queued > 0) return { queued: true };
    const left = row.spacing_left_s ?? 0;
    return { queued: false, retryAfterSeconds: left > 0 ? left : UNSENT_RETRY_AFTER_S };
  }

  async claimUnsent(leaseMs: number, limit: number): Promise<ClaimedSend[]> {
    const claimed = await this.prepared.rows(CLAIM_UNSENT, [leaseMs, limit]);
    return this.sends(claimed.map((r) => Number(r.id)));
  }

  async sends(ids: readonly number[]): Promise<ClaimedSend[]> {
    if (ids.length === 0) return [];
    const rows = await this.prepared.rows(SENDS, [ids]);
    return rows.map((row) => ({
      sendId: Number(row.send_id),
      attempts: row.attempts,
      digest: toScheduledDigest(row),
      period: { start: row.period_start, end: row.period_end },
      recipients: row.pending_recipients.map((r): SendRecipient => ({ id: Number(r.id), organizationId: Number(row.organization_id), address: r.address, tokenCiphertext: r.token })),
      lastError: row.send_error,
    }));
  }

  async markDelivered(sendId: number, recipientId: number): Promise<void> {
    await this.prepared.rows(MARK_DELIVERED, [sendId, recipientId]);
  }

  async markSent(sendId: number): Promise<void> {
    await this.prepared.rows(MARK_SENT, [sendId]);
  }

  async markAttemptFailed(sendId: number, error: string, final: boolean): Promise<void> {
    await this.prepared.rows(MARK_ATTEMPT_FAILED, [sendId, error, final]);
  }
}

/** $1 to $10 of CREATE_DIGEST and UPDATE_DIGEST: the digest's fields and the recipients to invite. */
function digestParams(organizationId: number, d: NewDigest, recipients: readonly NewRecipient[], invitationSpacingMs: number): unknown[] {
  return [
    organizationId, d.schedule, d.hourUtc, d.weekday, d.recipients, d.workflowIds,
    recipients.map((r) => r.address), recipients.map((r) => r.tokenHash), recipients.map((r) => r.tokenCiphertext), invitationSpacingMs,
  ];
}

function toDigest(row: DigestRow): Digest {
  return { ...toScheduledDigest(row), confirmedRecipients: row.confirmed_recipients, unsubscribedRecipients: row.unsubscribed_recipients };
}

function toScheduledDigest(row: ScheduledDigestRow): ScheduledDigest {
  return {
    id: Number(row.id),
    organizationId: Number(row.organization_id),
    schedule: row.schedule,
    hourUtc: row.hour_utc,
    weekday: row.weekday,
    recipients: row.recipients,
    workflowIds: row.workflow_ids?.map(Number) ?? null,
    createdAt: row.created_at,
    lastSentAt: row.last_sent_at,
    lastFailedAt: row.last_failed_at,
    lastError: row.last_error,
  };
}

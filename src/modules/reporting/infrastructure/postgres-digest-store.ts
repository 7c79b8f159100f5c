import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { PreparedStatements } from '../../../shared/database/prepared-statements.js';
import { type Digest, MAX_DIGESTS_PER_ORGANIZATION, type Period } from '../domain/digest.js';
import { type ClaimedSend, DigestStore, type NewDigest } from '../application/digest.ports.js';

interface DigestRow {
  id: string;
  organization_id: string;
  schedule: 'daily' | 'weekly';
  hour_utc: number;
  weekday: number | null;
  recipients: string[];
  workflow_ids: string[] | null;
  created_at: Date;
  last_sent_at: Date | null;
}

const DIGEST_COLUMNS = `d.id, d.organization_id, d.schedule, d.hour_utc, d.weekday, d.recipients, d.workflow_ids, d.created_at,
  (SELECT max(sent.sent_at) FROM digest_sends sent WHERE sent.digest_id = d.id) AS last_sent_at`;

/** Locks the organization's row so two creations cannot both pass the count. */
const CREATE_SQL = `
  WITH owner AS (SELECT id FROM organizations WHERE id = $1 FOR UPDATE),
  inserted AS (
    INSERT INTO digests (organization_id, schedule, hour_utc, weekday, recipients, workflow_ids)
    SELECT $1, $2, $3, $4, $5, $6 FROM owner
    WHERE (SELECT count(*) FROM digests WHERE organization_id = $1) < ${MAX_DIGESTS_PER_ORGANIZATION}
    RETURNING *)
  SELECT ${DIGEST_COLUMNS} FROM inserted d`;

const SEND_COLUMNS = `s.id AS send_id, s.period_start, s.period_end, ${DIGEST_COLUMNS}`;

@Injectable()
export class PostgresDigestStore extends DigestStore {
  private readonly prepared: PreparedStatements;

  constructor(@InjectDataSource() dataSource: DataSource) {
    super();
    this.prepared = new PreparedStatements(dataSource);
  }

  async create(organizationId: number, d: NewDigest): Promise<Digest | null> {
    const [row] = await this.rows<DigestRow>(CREATE_SQL, [organizationId, d.schedule, d.hourUtc, d.weekday, d.recipients, d.workflowIds]);
    return row ? toDigest(row) : null;
  }

  async list(organizationId: number): Promise<Digest[]> {
    return (await this.rows<DigestRow>(`SELECT ${DIGEST_COLUMNS} FROM digests d WHERE d.organization_id = $1 ORDER BY d.id`, [organizationId])).map(toDigest);
  }

  async find(organizationId: number, id: number): Promise<Digest | null> {
    const [row] = await this.rows<DigestRow>(`SELECT ${DIGEST_COLUMNS} FROM digests d WHERE d.organization_id = $1 AND d.id = $2`, [organizationId, id]);
    return row ? toDigest(row) : null;
  }

  async delete(organizationId: number, id: number): Promise<boolean> {
    return (await this.rows(`DELETE FROM digests WHERE organization_id = $1 AND id = $2 RETURNING id`, [organizationId, id])).length > 0;
  }

  async all(): Promise<Digest[]> {
    return (await this.rows<DigestRow>(`SELECT ${DIGEST_COLUMNS} FROM digests d ORDER BY d.id`, [])).map(toDigest);
  }

  async claimPeriods(digestId: number, periods: readonly Period[]): Promise<number[]> {
    const rows = await this.rows<{ id: string }>(
      `INSERT INTO digest_sends (digest_id, kind, period_start, period_end)
       SELECT $1, 'scheduled', p.start, p.end_ FROM unnest($2::timestamptz[], $3::timestamptz[]) AS p(start, end_)
       ON CONFLICT (digest_id, period_end) WHERE kind = 'scheduled' DO NOTHING
       RETURNING id`,
      [digestId, periods.map((p) => p.start), periods.map((p) => p.end)],
    );
    return rows.map((r) => Number(r.id));
  }

  async addManualSend(digestId: number, period: Period): Promise<void> {
    await this.rows(
      `INSERT INTO digest_sends (digest_id, kind, period_start, period_end, claimed_at)
       SELECT $1, 'manual', $2, $3, NULL WHERE NOT EXISTS (SELECT 1 FROM digest_sends WHERE digest_id = $1 AND kind = 'manual' AND state = 'sending')`,
      [digestId, period.start, period.end],
    );
  }

  async claimUnsent(leaseMs: number, limit: number): Promise<ClaimedSend[]> {
    const claimed = await this.rows<{ id: string }>(
      `UPDATE digest_sends SET claimed_at = now(), attempts = attempts + 1
       WHERE id IN (SELECT id FROM digest_sends WHERE state = 'sending' AND (claimed_at IS NULL OR claimed_at < now() - $1 * interval '1 millisecond')
                    ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING id`,
      [leaseMs, limit],
    );
    return this.sends(claimed.map((r) => Number(r.id)));
  }

  async sends(ids: readonly number[]): Promise<ClaimedSend[]> {
    if (ids.length === 0) return [];
    const rows = await this.rows<DigestRow & { send_id: string; period_start: Date; period_end: Date }>(
      `SELECT ${SEND_COLUMNS} FROM digest_sends s JOIN digests d ON d.id = s.digest_id WHERE s.id = ANY($1::bigint[]) ORDER BY s.id`,
      [ids],
    );
    return rows.map((row) => ({ sendId: Number(row.send_id), digest: toDigest(row), period: { start: row.period_start, end: row.period_end } }));
  }

  async markSent(sendId: number): Promise<void> {
    await this.rows(`UPDATE digest_sends SET state = 'sent', sent_at = now() WHERE id = $1`, [sendId]);
  }

  private rows<T>(sql: string, params: unknown[]): Promise<T[]> {
    return this.prepared.rows<T>(sql, params);
  }
}

function toDigest(row: DigestRow): Digest {
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
  };
}

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { Transaction } from '../../../shared/database/transaction.js';
import { entityManager } from '../../../shared/database/typeorm-transaction-runner.js';
import type { ChangeAuthor } from '../../audit/domain/audit-entry.js';
import { type BulkJobRef, BulkJobStore } from '../application/bulk-job-store.js';
import type { BulkChange, BulkFailure, BulkJob, BulkJobState, CaseOutcome, ClaimedBulkJob } from '../domain/bulk-job.js';

interface JobRow {
  organization_id: string;
  id: string;
  change: BulkChange;
  requested_by: ChangeAuthor;
  total: number;
  done: number;
  failed: number;
  state: BulkJobState;
  created_at: Date;
  finished_at: Date | null;
}

const JOB_COLUMNS = 'organization_id, id, change, requested_by, total, done, failed, state, created_at, finished_at';
const UNFINISHED = `j.state <> 'finished'`;

/** The job's rows; the relay's hand-over and the worker's lease as for sign-in mails (PostgresSignInMailOutbox). */
@Injectable()
export class PostgresBulkJobStore extends BulkJobStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {
    super();
  }

  async create(tx: Transaction, organizationId: number, change: BulkChange, requestedBy: ChangeAuthor, caseIds: readonly number[]): Promise<BulkJob> {
    const m = entityManager(tx);
    const [row] = (await m.query(
      `INSERT INTO bulk_jobs (organization_id, change, requested_by, total) VALUES ($1, $2, $3, $4) RETURNING ${JOB_COLUMNS}`,
      [organizationId, JSON.stringify(change), JSON.stringify(requestedBy), caseIds.length],
    )) as JobRow[];
    await m.query('INSERT INTO bulk_job_cases (organization_id, job_id, case_id) SELECT $1, $2, unnest($3::bigint[])', [organizationId, row!.id, caseIds]);
    return toJob(row!);
  }

  async unfinished(tx: Transaction, organizationId: number): Promise<number> {
    const m = entityManager(tx);
    await m.query(`SELECT pg_advisory_xact_lock(hashtextextended('bulk-jobs:' || $1::text, 0))`, [organizationId]);
    const [row] = (await m.query(`SELECT count(*)::int AS n FROM bulk_jobs j WHERE j.organization_id = $1 AND ${UNFINISHED}`, [organizationId])) as { n: number }[];
    return row!.n;
  }

  async find(organizationId: number, id: number): Promise<BulkJob | null> {
    const [row] = (await this.db.query(`SELECT ${JOB_COLUMNS} FROM bulk_jobs WHERE organization_id = $1 AND id = $2`, [organizationId, id])) as JobRow[];
    return row ? toJob(row) : null;
  }

  async failures(organizationId: number, id: number, limit: number): Promise<BulkFailure[]> {
    const rows = (await this.db.query(
      'SELECT case_id, failure FROM bulk_job_cases WHERE organization_id = $1 AND job_id = $2 AND failure IS NOT NULL ORDER BY case_id LIMIT $3',
      [organizationId, id, limit],
    )) as { case_id: string; failure: string }[];
    return rows.map((r) => ({ caseId: Number(r.case_id), reason: r.failure }));
  }

  takeNew(limit: number): Promise<BulkJobRef[]> {
    return this.take('j.enqueued_at IS NULL', limit);
  }

  takeExpired(limit: number): Promise<BulkJobRef[]> {
    return this.take('j.locked_until < now() AND j.enqueued_at < j.locked_until', limit);
  }

  takeStale(limit: number, graceMs: number): Promise<BulkJobRef[]> {
    return this.take(`j.enqueued_at < now() - $2 * interval '1 millisecond' AND (j.locked_until IS NULL OR j.locked_until < now())`, limit, graceMs);
  }

  async untake(refs: BulkJobRef[]): Promise<void> {
    await this.db.query(
      'UPDATE bulk_jobs SET enqueued_at = NULL WHERE (organization_id, id) IN (SELECT * FROM unnest($1::bigint[], $2::bigint[]))',
      [refs.map((r) => r.organizationId), refs.map((r) => r.id)],
    );
  }

  async claim(ref: BulkJobRef, leaseMs: number): Promise<ClaimedBulkJob | undefined> {
    const [rows] = (await this.db.query(
      `UPDATE bulk_jobs SET attempts = attempts + 1, locked_until = now() + $3 * interval '1 millisecond', state = 'running'
       WHERE organization_id = $1 AND id = $2 AND state <> 'finished' AND (locked_until IS NULL OR locked_until < now())
       RETURNING change, requested_by, attempts`,
      [ref.organizationId, ref.id, leaseMs],
    )) as [{ change: BulkChange; requested_by: ChangeAuthor; attempts: number }[], number];
    const row = rows[0];
    return row && { organizationId: ref.organizationId, id: ref.id, attempt: row.attempts, change: row.change, requestedBy: row.requested_by };
  }

  async renewLease(job: ClaimedBulkJob, leaseMs: number): Promise<void> {
    await this.db.query(
      `UPDATE bulk_jobs SET locked_until = now() + $4 * interval '1 millisecond'
       WHERE organization_id = $1 AND id = $2 AND attempts = $3 AND state <> 'finished'`,
      [job.organizationId, job.id, job.attempt, leaseMs],
    );
  }

  async pending(tx: Transaction, job: ClaimedBulkJob, limit: number): Promise<number[]> {
    const rows = (await entityManager(tx).query(
      `SELECT case_id FROM bulk_job_cases WHERE organization_id = $1 AND job_id = $2 AND NOT finished
       ORDER BY case_id LIMIT $3 FOR UPDATE SKIP LOCKED`,
      [job.organizationId, job.id, limit],
    )) as { case_id: string }[];
    return rows.map((r) => Number(r.case_id));
  }

  async record(tx: Transaction, job: ClaimedBulkJob, outcomes: readonly CaseOutcome[]): Promise<void> {
    if (!outcomes.length) return;
    await entityManager(tx).query(
      `WITH marked AS (
         UPDATE bulk_job_cases c SET finished = true, failure = o.failure
         FROM unnest($3::bigint[], $4::text[]) AS o(case_id, failure)
         WHERE c.organization_id = $1 AND c.job_id = $2 AND c.case_id = o.case_id AND NOT c.finished
         RETURNING c.failure
       )
       UPDATE bulk_jobs SET done = done + (SELECT count(*) FROM marked WHERE failure IS NULL),
         failed = failed + (SELECT count(*) FROM marked WHERE failure IS NOT NULL)
       WHERE organization_id = $1 AND id = $2`,
      [job.organizationId, job.id, outcomes.map((o) => o.caseId), outcomes.map((o) => o.failure)],
    );
  }

  async finish(job: ClaimedBulkJob): Promise<void> {
    await this.db.query(
      `WITH finished AS (
         UPDATE bulk_jobs SET state = 'finished', finished_at = now(), locked_until = NULL
         WHERE organization_id = $1 AND id = $2 AND state <> 'finished'
           AND NOT EXISTS (SELECT 1 FROM bulk_job_cases WHERE organization_id = $1 AND job_id = $2 AND NOT finished)
         RETURNING id
       )
       DELETE FROM bulk_job_cases WHERE organization_id = $1 AND job_id IN (SELECT id FROM finished) AND failure IS NULL`,
      [job.organizationId, job.id],
    );
  }

  /** `graceMs` is $2 when `condition` uses it (an unused parameter has no type Postgres can infer). */
  private async take(condition: string, limit: number, graceMs?: number): Promise<BulkJobRef[]> {
    const [rows] = (await this.db.query(
      `UPDATE bulk_jobs SET enqueued_at = now()
       WHERE (organization_id, id) IN (
         SELECT j.organization_id, j.id FROM bulk_jobs j
         WHERE ${UNFINISHED} AND ${condition}
         ORDER BY j.organization_id, j.id LIMIT $1 FOR UPDATE SKIP LOCKED)
       RETURNING organization_id, id, attempts`,
      graceMs === undefined ? [limit] : [limit, graceMs],
    )) as [{ organization_id: string; id: string; attempts: number }[], number];
    return rows.map((r) => ({ organizationId: Number(r.organization_id), id: Number(r.id), attempts: r.attempts }));
  }
}

function toJob(row: JobRow): BulkJob {
  return {
    organizationId: Number(row.organization_id),
    id: Number(row.id),
    change: row.change,
    requestedBy: row.requested_by,
    total: row.total,
    done: row.done,
    failed: row.failed,
    state: row.state,
    createdAt: row.created_at,
    finishedAt: row.finished_at,
  };
}

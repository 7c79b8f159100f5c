import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { Transaction } from '../../../shared/database/transaction.js';
import { column, type RowOf } from '../../../shared/database/typed-statement.js';
import { firstRowOf, rowsOf, statement } from './persistence.js';
import { entityManager } from '../../../shared/database/typeorm-transaction-runner.js';
import type { ChangeAuthor } from '../../audit/domain/audit-entry.js';
import { type BulkJobRef, BulkJobStore } from '../application/bulk-job-store.js';
import type { BulkChange, BulkFailure, BulkJob, BulkJobState, CaseOutcome, ClaimedBulkJob } from '../domain/bulk-job.js';
import { relayTakes } from '../../../shared/database/relay-sql.js';

const JOB_COLUMNS = 'organization_id, id, change, requested_by, total, done, failed, state, created_at, finished_at';
const JOB_ROW = {
  organization_id: column.int8,
  id: column.int8,
  change: column.jsonb<BulkChange>(),
  requested_by: column.jsonb<ChangeAuthor>(),
  total: column.int4,
  done: column.int4,
  failed: column.int4,
  state: column.textOf<BulkJobState>(),
  created_at: column.timestamptz,
  finished_at: column.nullable(column.timestamptz),
};
const UNFINISHED = `j.state <> 'finished'`;

const INSERT_JOB = statement(`INSERT INTO bulk_jobs (organization_id, change, requested_by, total) VALUES ($1, $2, $3, $4) RETURNING ${JOB_COLUMNS}`, JOB_ROW);
const INSERT_JOB_CASES = statement('INSERT INTO bulk_job_cases (organization_id, job_id, case_id) SELECT $1, $2, unnest($3::bigint[])');
const LOCK_ORGANIZATION_JOBS = statement(`SELECT pg_advisory_xact_lock(hashtextextended('bulk-jobs:' || $1::text, 0))`, { pg_advisory_xact_lock: column.void });
const COUNT_UNFINISHED = statement(`SELECT count(*)::int AS n FROM bulk_jobs j WHERE j.organization_id = $1 AND ${UNFINISHED}`, { n: column.int4 });
const FIND_JOB = statement(`SELECT ${JOB_COLUMNS} FROM bulk_jobs WHERE organization_id = $1 AND id = $2`, JOB_ROW);
const FAILURES = statement(
  'SELECT case_id, failure FROM bulk_job_cases WHERE organization_id = $1 AND job_id = $2 AND failure IS NOT NULL ORDER BY case_id LIMIT $3',
  { case_id: column.int8, failure: column.text },
);
/** Unfinished jobs meeting `condition`, up to $1, handed to the queue; `condition` may use $2 (a grace in ms). */
const takeJobs = (condition: string) =>
  statement(
    `UPDATE bulk_jobs SET enqueued_at = now()
     WHERE (organization_id, id) IN (
       SELECT j.organization_id, j.id FROM bulk_jobs j
       WHERE ${UNFINISHED} AND ${condition}
       ORDER BY j.organization_id, j.id LIMIT $1 FOR UPDATE SKIP LOCKED)
     RETURNING organization_id, id, attempts`,
    { organization_id: column.int8, id: column.int8, attempts: column.int4 },
  );
const TAKE = relayTakes('j', '$2', takeJobs);
const UNTAKE = statement('UPDATE bulk_jobs SET enqueued_at = NULL WHERE (organization_id, id) IN (SELECT * FROM unnest($1::bigint[], $2::bigint[]))');
const CLAIM = statement(
  `UPDATE bulk_jobs SET attempts = attempts + 1, locked_until = now() + $3 * interval '1 millisecond', state = 'running'
   WHERE organization_id = $1 AND id = $2 AND state <> 'finished' AND (locked_until IS NULL OR locked_until < now())
   RETURNING change, requested_by, attempts`,
  { change: column.jsonb<BulkChange>(), requested_by: column.jsonb<ChangeAuthor>(), attempts: column.int4 },
);
const RENEW_LEASE = statement(
  `UPDATE bulk_jobs SET locked_until = now() + $4 * interval '1 millisecond'
   WHERE organization_id = $1 AND id = $2 AND attempts = $3 AND state <> 'finished'`,
);
const LOCK_PENDING_CASES = statement(
  `SELECT case_id FROM bulk_job_cases WHERE organization_id = $1 AND job_id = $2 AND NOT finished
   ORDER BY case_id LIMIT $3 FOR UPDATE SKIP LOCKED`,
  { case_id: column.int8 },
);
const RECORD_OUTCOMES = statement(
  `WITH marked AS (
     UPDATE bulk_job_cases c SET finished = true, failure = o.failure
     FROM unnest($3::bigint[], $4::text[]) AS o(case_id, failure)
     WHERE c.organization_id = $1 AND c.job_id = $2 AND c.case_id = o.case_id AND NOT c.finished
     RETURNING c.failure
   )
   UPDATE bulk_jobs SET done = done + (SELECT count(*) FROM marked WHERE failure IS NULL),
     failed = failed + (SELECT count(*) FROM marked WHERE failure IS NOT NULL)
   WHERE organization_id = $1 AND id = $2`,
);
const FINISH = statement(
  `WITH finished AS (
     UPDATE bulk_jobs SET state = 'finished', finished_at = now(), locked_until = NULL
     WHERE organization_id = $1 AND id = $2 AND state <> 'finished'
       AND NOT EXISTS (SELECT 1 FROM bulk_job_cases WHERE organization_id = $1 AND job_id = $2 AND NOT finished)
     RETURNING id
   )
   DELETE FROM bulk_job_cases WHERE organization_id = $1 AND job_id IN (SELECT id FROM finished) AND failure IS NULL`,
);

/** The job's rows; the relay's hand-over and the worker's lease as for sign-in mails (PostgresSignInMailOutbox). */
@Injectable()
export class PostgresBulkJobStore extends BulkJobStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {
    super();
  }

  async create(tx: Transaction, organizationId: number, change: BulkChange, requestedBy: ChangeAuthor, caseIds: readonly number[]): Promise<BulkJob> {
    const m = entityManager(tx);
    const row = await firstRowOf(m, INSERT_JOB, [organizationId, JSON.stringify(change), JSON.stringify(requestedBy), caseIds.length]);
    await rowsOf(m, INSERT_JOB_CASES, [organizationId, row!.id, caseIds]);
    return toJob(row!);
  }

  async unfinished(tx: Transaction, organizationId: number): Promise<number> {
    const m = entityManager(tx);
    await rowsOf(m, LOCK_ORGANIZATION_JOBS, [organizationId]);
    return (await firstRowOf(m, COUNT_UNFINISHED, [organizationId]))!.n;
  }

  async find(organizationId: number, id: number): Promise<BulkJob | null> {
    const row = await firstRowOf(this.db, FIND_JOB, [organizationId, id]);
    return row ? toJob(row) : null;
  }

  async failures(organizationId: number, id: number, limit: number): Promise<BulkFailure[]> {
    const rows = await rowsOf(this.db, FAILURES, [organizationId, id, limit]);
    return rows.map((r) => ({ caseId: Number(r.case_id), reason: r.failure }));
  }

  takeNew(limit: number): Promise<BulkJobRef[]> {
    return this.take(TAKE.new, [limit]);
  }

  takeExpired(limit: number): Promise<BulkJobRef[]> {
    return this.take(TAKE.expired, [limit]);
  }

  takeStale(limit: number, graceMs: number): Promise<BulkJobRef[]> {
    return this.take(TAKE.stale, [limit, graceMs]);
  }

  async untake(refs: BulkJobRef[]): Promise<void> {
    await rowsOf(this.db, UNTAKE, [refs.map((r) => r.organizationId), refs.map((r) => r.id)]);
  }

  async claim(ref: BulkJobRef, leaseMs: number): Promise<ClaimedBulkJob | undefined> {
    const row = await firstRowOf(this.db, CLAIM, [ref.organizationId, ref.id, leaseMs]);
    return row && { organizationId: ref.organizationId, id: ref.id, attempt: row.attempts, change: row.change, requestedBy: row.requested_by };
  }

  async renewLease(job: ClaimedBulkJob, leaseMs: number): Promise<void> {
    await rowsOf(this.db, RENEW_LEASE, [job.organizationId, job.id, job.attempt, leaseMs]);
  }

  async pending(tx: Transaction, job: ClaimedBulkJob, limit: number): Promise<number[]> {
    const rows = await rowsOf(entityManager(tx), LOCK_PENDING_CASES, [job.organizationId, job.id, limit]);
    return rows.map((r) => Number(r.case_id));
  }

  async record(tx: Transaction, job: ClaimedBulkJob, outcomes: readonly CaseOutcome[]): Promise<void> {
    if (!outcomes.length) return;
    await rowsOf(entityManager(tx), RECORD_OUTCOMES, [job.organizationId, job.id, outcomes.map((o) => o.caseId), outcomes.map((o) => o.failure)]);
  }

  async finish(job: ClaimedBulkJob): Promise<void> {
    await rowsOf(this.db, FINISH, [job.organizationId, job.id]);
  }

  /** `parameters` has the grace as $2 only for the statement that uses it (an unused parameter has no type Postgres can infer). */
  private async take(taking: typeof TAKE.new, parameters: unknown[]): Promise<BulkJobRef[]> {
    const rows = await rowsOf(this.db, taking, parameters);
    return rows.map((r) => ({ organizationId: Number(r.organization_id), id: Number(r.id), attempts: r.attempts }));
  }
}

function toJob(row: RowOf<typeof JOB_ROW>): BulkJob {
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

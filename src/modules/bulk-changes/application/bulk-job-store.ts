import type { Transaction } from '../../../shared/database/transaction.js';
import type { ChangeAuthor } from '../../audit/domain/audit-entry.js';
import type { BulkChange, BulkFailure, BulkJob, CaseOutcome, ClaimedBulkJob } from '../domain/bulk-job.js';

/** A job as the relay hands it to the queue: `attempts` names the hand-over in the queue's job id. */
export interface BulkJobRef {
  organizationId: number;
  id: number;
  attempts: number;
}

/** `bulk_jobs` and `bulk_job_cases`, bound to the module's infrastructure. */
export abstract class BulkJobStore {
  /** The job with its cases, in the caller's transaction. */
  abstract create(tx: Transaction, organizationId: number, change: BulkChange, requestedBy: ChangeAuthor, caseIds: readonly number[]): Promise<BulkJob>;
  /** How many of the organization's jobs are queued or running; serializes the organization's acceptances until `tx` ends. */
  abstract unfinished(tx: Transaction, organizationId: number): Promise<number>;
  abstract find(organizationId: number, id: number): Promise<BulkJob | null>;
  /** The first `limit` cases (by id) that could not change. */
  abstract failures(organizationId: number, id: number, limit: number): Promise<BulkFailure[]>;

  abstract takeNew(limit: number): Promise<BulkJobRef[]>;
  abstract takeExpired(limit: number): Promise<BulkJobRef[]>;
  abstract takeStale(limit: number, graceMs: number): Promise<BulkJobRef[]>;
  abstract untake(refs: BulkJobRef[]): Promise<void>;

  /** The job for one worker for `leaseMs`, unless it finished or another worker's lease holds it. */
  abstract claim(ref: BulkJobRef, leaseMs: number): Promise<ClaimedBulkJob | undefined>;
  abstract renewLease(job: ClaimedBulkJob, leaseMs: number): Promise<void>;
  /** Up to `limit` of the job's cases not yet finished, by id, locked until `tx` ends (cases another transaction holds are skipped). */
  abstract pending(tx: Transaction, job: ClaimedBulkJob, limit: number): Promise<number[]>;
  /** Marks the cases finished, with their failures, and counts them on the job (a case already finished is not counted again). */
  abstract record(tx: Transaction, job: ClaimedBulkJob, outcomes: readonly CaseOutcome[]): Promise<void>;
  /** Finished once no case is left (else left as it is, for the relay to hand over again), keeping only its failures' rows. */
  abstract finish(job: ClaimedBulkJob): Promise<void>;
}

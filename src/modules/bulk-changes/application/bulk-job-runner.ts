import { Inject, Injectable } from '@nestjs/common';
import { isTransientDatabaseFailure } from '../../../shared/database/database-errors.js';
import { TransactionRunner } from '../../../shared/database/transaction.js';
import { LOGGER, type Logger } from '../../../shared/logging/logger.js';
import { keepLease } from '../../../shared/queue/lease.js';
import type { CaseOutcome, ClaimedBulkJob } from '../domain/bulk-job.js';
import { BulkCaseChanges } from './bulk-case-changes.js';
import { type BulkJobRef, BulkJobStore } from './bulk-job-store.js';

/** How long a worker holds a job without renewing it (it renews every third of this): a job whose worker died is taken again after this (see Relay). */
export const BULK_JOB_LEASE_MS = 6_000;
/** Cases changed per transaction: a case's change and its mark in the job commit together. */
const CHUNK = 50;
/** Cases marked failed per transaction when the rest of a job is not run. */
const FAILED_AT_ONCE = 1_000;
const UNCHANGEABLE = 'the case could not be changed';
const REQUESTER_GONE = 'who asked for this change may no longer change cases';

/**
 * In worker roles: runs one bulk job to its end, a chunk of cases per transaction. Each case's
 * change and its row in the job commit together, so a job picked up again after its worker died
 * goes on with the cases not yet finished, and no case changes twice.
 */
@Injectable()
export class BulkJobRunner {
  constructor(
    private readonly jobs: BulkJobStore,
    private readonly changes: BulkCaseChanges,
    private readonly transactions: TransactionRunner,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Throws only when Postgres fails, breaks a chunk off (a deadlock) or cancels its statement: the queue's job is tried again, and the job is taken again once its lease ends. */
  async run(ref: BulkJobRef): Promise<void> {
    const job = await this.jobs.claim(ref, BULK_JOB_LEASE_MS);
    if (!job) return;
    const stopRenewing = keepLease(() => this.jobs.renewLease(job, BULK_JOB_LEASE_MS), BULK_JOB_LEASE_MS);
    try {
      // Asked before every chunk: a person deleted or demoted, or a token deleted, changes no more
      // of the job's cases than their next request could (a chunk already under way ends).
      for (;;) {
        if (!(await this.changes.mayStillChange(job.organizationId, job.requestedBy))) {
          await this.failRest(job, REQUESTER_GONE);
          break;
        }
        if ((await this.chunk(job, CHUNK)) === 0) break;
      }
      await this.jobs.finish(job);
    } finally {
      stopRenewing();
    }
  }

  /** Counts every case the job has not come to as failed with `reason`, changing none. */
  private async failRest(job: ClaimedBulkJob, reason: string): Promise<void> {
    for (;;) {
      const failed = await this.transactions.run(async (tx) => {
        const caseIds = await this.jobs.pending(tx, job, FAILED_AT_ONCE);
        await this.jobs.record(tx, job, caseIds.map((caseId) => ({ caseId, failure: reason })));
        return caseIds.length;
      });
      if (failed < FAILED_AT_ONCE) return;
    }
  }

  /** Changes up to `limit` pending cases in one transaction; answers how many it took. */
  private async chunk(job: ClaimedBulkJob, limit: number): Promise<number> {
    try {
      return await this.transactions.run(async (tx) => {
        const caseIds = await this.jobs.pending(tx, job, limit);
        // All of them before any team a change locks: a PATCH of one of them, or a team's deletion, locks its case(s) first too.
        await this.changes.lock(tx, job.organizationId, caseIds);
        const outcomes: CaseOutcome[] = [];
        for (const caseId of caseIds) outcomes.push({ caseId, failure: await this.changes.change(tx, job.organizationId, caseId, job.change, job.requestedBy) });
        await this.jobs.record(tx, job, outcomes);
        return caseIds.length;
      });
    } catch (err) {
      // A deadlock's or serialization conflict's loser, or a statement cancelled (most often a wait
      // for a case another transaction holds past the statement timeout), is not the cases' fault:
      // the job goes on later, as when Postgres is down.
      if (isTransientDatabaseFailure(err)) throw err;
      // One case the database refuses (a constraint, a trigger) must not stop the job forever:
      // the chunk is tried again a case at a time, and such a case is counted as failed.
      if (limit > 1) return this.chunk(job, 1);
      this.logger.error({ err: String(err), organizationId: job.organizationId, jobId: job.id }, 'a bulk change failed on a case');
      return this.transactions.run(async (tx) => {
        const [caseId] = await this.jobs.pending(tx, job, 1);
        if (caseId === undefined) return 0;
        await this.jobs.record(tx, job, [{ caseId, failure: UNCHANGEABLE }]);
        return 1;
      });
    }
  }
}

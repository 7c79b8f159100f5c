import { Injectable } from '@nestjs/common';
import { TransactionRunner } from '../../../shared/database/transaction.js';
import { InvalidRequestError, NotFoundError } from '../../../shared/errors/app-error.js';
import { AuditTrail } from '../../audit/application/audit-trail.js';
import type { ChangeAuthor } from '../../audit/domain/audit-entry.js';
import { CaseQueriesService, type ListFilterRequest } from '../../cases/application/case-queries.service.js';
import { type BulkChange, type BulkFailure, type BulkJob, MAX_BULK_CASES, MAX_UNFINISHED_BULK_JOBS } from '../domain/bulk-job.js';
import { BulkJobStore } from './bulk-job-store.js';

/** Failures a job's answer lists at most. */
export const LISTED_FAILURES = 100;

/** Which cases a job changes: those of the list's filters now, or the ids given. */
export type BulkSelection = { filter: ListFilterRequest } | { caseIds: readonly number[] };

/**
 * Accepts bulk changes (casework.md, section 6): the cases are fixed as the job is accepted,
 * stored with it in one transaction, and the worker (BulkJobRunner) changes them one by one.
 */
@Injectable()
export class BulkJobsService {
  constructor(
    private readonly jobs: BulkJobStore,
    private readonly cases: CaseQueriesService,
    private readonly transactions: TransactionRunner,
    private readonly audit: AuditTrail,
  ) {}

  async accept(organizationId: number, by: ChangeAuthor, selection: BulkSelection, change: BulkChange): Promise<BulkJob> {
    // A filter's cases are read as a list read, one more than the cap to know when it is passed.
    const caseIds = 'caseIds' in selection ? [...new Set(selection.caseIds)] : await this.cases.idsUpTo(organizationId, selection.filter, MAX_BULK_CASES + 1);
    if (caseIds.length > MAX_BULK_CASES) throw new InvalidRequestError(`a bulk change takes at most ${MAX_BULK_CASES.toLocaleString('en')} cases; narrow the filter`);
    if (caseIds.length === 0) throw new InvalidRequestError('no case matches: there is nothing to change');
    return this.transactions.run(async (tx) => {
      if ((await this.jobs.unfinished(tx, organizationId)) >= MAX_UNFINISHED_BULK_JOBS) {
        throw new InvalidRequestError(`the organization already has ${MAX_UNFINISHED_BULK_JOBS} bulk changes under way; wait for one to finish`);
      }
      const job = await this.jobs.create(tx, organizationId, change, by, caseIds);
      await this.audit.record(tx, { organizationId, by, action: 'bulk_job.created', target: { type: 'bulk_job', id: String(job.id) }, summary: { change, total: job.total } });
      return job;
    });
  }

  async get(organizationId: number, id: number): Promise<{ job: BulkJob; failures: BulkFailure[] }> {
    const job = await this.jobs.find(organizationId, id);
    if (!job) throw new NotFoundError('job');
    return { job, failures: job.failed === 0 ? [] : await this.jobs.failures(organizationId, id, LISTED_FAILURES) };
  }
}

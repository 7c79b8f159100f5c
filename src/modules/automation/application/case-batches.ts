import { Injectable } from '@nestjs/common';
import { BatchQueue } from '../../../shared/concurrency/batch-queue.js';
import { BatchWorkFailed, runTogether } from '../../../shared/database/batch-work.js';
import { TransactionRunner, type Transaction } from '../../../shared/database/transaction.js';
import type { Case } from '../../cases/domain/case.js';
import { CaseRepository } from '../../cases/domain/case.repository.js';

/** Work on one locked case (null when it is gone), inside a transaction other cases' work may share. */
export type CaseWork<T> = (tx: Transaction, subject: Case | null) => Promise<T>;

interface Entry {
  caseId: number;
  work: CaseWork<unknown>;
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
}

/** The most cases one transaction locks. */
export const MAX_CASES_PER_BATCH = 64;
/** Transactions under way at once: the next batch gathers while one is stored. */
const MAX_BATCHES_IN_FLIGHT = 2;

/**
 * Runs the work that comes due for different cases at the same moment in one transaction: the
 * cases are locked, with their runs, by one statement each, their stores go out together on the
 * pipelined connection, and one commit covers them all. A transaction's fixed costs (its
 * round trips, `BEGIN`, `COMMIT` and the WAL flush, the lock and runs statements) are paid once
 * per batch instead of once per case (docs/architecture.md, decision record 2).
 *
 * Work queued while two batches are under way waits for one of them to end, so batches grow
 * with the load and stay at one case when it is light. A case is in one batch under way at a
 * time: work for a case that is, waits for the next batch, and sees what the first one stored.
 *
 * When a case's work fails, only that work fails; the batch's other work runs again in a new
 * batch, as nothing of the first one was committed. When the transaction itself fails (its
 * connection, its lock or runs statement, its `COMMIT`), every work in it fails, to be retried
 * by its caller; a `COMMIT` left unanswered fails it only when the transaction did not commit
 * (TransactionRunner.runCheckingCommit), so the work that was stored goes on without a retry.
 */
@Injectable()
export class CaseBatches extends BatchQueue<Entry> {
  /** The cases of the batches under way. */
  private readonly busy = new Set<number>();

  constructor(private readonly cases: CaseRepository, private readonly transactions: TransactionRunner) {
    super(MAX_BATCHES_IN_FLIGHT);
  }

  /** Runs `work` on the case, locked, in a transaction that commits before the promise settles. */
  run<T>(caseId: number, work: CaseWork<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => this.enqueue({ caseId, work, resolve: resolve as (value: unknown) => void, reject }));
  }

  /** The oldest queued work, one per case and none for a case under way, in case id order (the order the locks are taken in). */
  protected takeBatch(): Entry[] {
    const batch = new Map<number, Entry>();
    const left: Entry[] = [];
    for (const entry of this.queue) {
      if (batch.size < MAX_CASES_PER_BATCH && !batch.has(entry.caseId) && !this.busy.has(entry.caseId)) batch.set(entry.caseId, entry);
      else left.push(entry);
    }
    this.queue = left;
    for (const caseId of batch.keys()) this.busy.add(caseId);
    return [...batch.values()].sort((a, b) => a.caseId - b.caseId);
  }

  protected async runBatch(batch: Entry[]): Promise<void> {
    try {
      await this.store(batch);
    } finally {
      for (const entry of batch) this.busy.delete(entry.caseId);
    }
  }

  private async store(batch: Entry[]): Promise<void> {
    let results: unknown[];
    try {
      results = await this.transactions.runCheckingCommit((tx) => this.inTransaction(tx, batch));
    } catch (err) {
      if (!(err instanceof BatchWorkFailed)) return batch.forEach((entry) => entry.reject(err));
      const failures = err.failures as ReadonlyMap<Entry, unknown>;
      for (const [entry, reason] of failures) entry.reject(reason);
      const others = batch.filter((entry) => !failures.has(entry));
      if (others.length > 0) await this.store(others);
      return;
    }
    batch.forEach((entry, i) => entry.resolve(results[i]));
  }

  /** Every case's work runs to its end before the transaction ends, even when one of them failed. */
  private async inTransaction(tx: Transaction, batch: Entry[]): Promise<unknown[]> {
    const subjects = await this.cases.load(tx, batch.map((entry) => entry.caseId));
    return runTogether(batch, (entry) => entry.work(tx, subjects.get(entry.caseId) ?? null));
  }
}

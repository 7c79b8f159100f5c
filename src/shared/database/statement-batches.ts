import { performance } from 'node:perf_hooks';
import { BatchQueue } from '../concurrency/batch-queue.js';
import { BatchWorkFailed } from './batch-work.js';
import { isDatabaseUnavailable, StatementWaitTimeoutError } from './database-errors.js';
import { PreparedStatements } from './prepared-statements.js';
import type { TransactionRunner } from './transaction.js';
import type { Statement } from './typed-statement.js';

interface Entry {
  statement: Statement<unknown>;
  values: unknown[];
  queuedAt: number;
  resolve: (rows: unknown[]) => void;
  reject: (reason: unknown) => void;
}

/** The most statements one transaction carries. */
const MAX_STATEMENTS_PER_BATCH = 32;
/** Transactions under way at once: the next batch gathers while they are stored. */
const MAX_BATCHES_IN_FLIGHT = 2;
/** As long as a request waits for a pooled connection (DATABASE_CONNECT_TIMEOUT_MS' default): then a 503 it may retry. */
const MAX_QUEUED_MS = 10_000;

/**
 * Runs statements that do not depend on each other (each one atomic on its own, taking no lock
 * another could wait for) and arrive at the same moment in one transaction: they go out
 * together on the pipelined connection and one `COMMIT` covers them all, so Postgres wakes,
 * commits and flushes its WAL once per batch instead of once per statement
 * (docs/architecture.md, decision record 2). A statement that arrives alone runs alone, without a
 * transaction.
 *
 * When statements of a batch fail, nothing of it is stored: those fail, each with its own
 * error, and the others run again together. When the database is unavailable, or the
 * transaction itself fails (its `COMMIT`), every statement fails, as it would have alone, and
 * nothing is run again. A `COMMIT` that goes unanswered is not such a failure when the batch
 * turns out to have committed (TransactionRunner.runCheckingCommit): each statement is
 * answered with its rows, so no sender is told to send again what is stored.
 */
export class StatementBatches extends BatchQueue<Entry> {
  constructor(
    private readonly prepared: PreparedStatements,
    private readonly transactions: TransactionRunner,
    private readonly maxQueuedMs = MAX_QUEUED_MS,
  ) {
    super(MAX_BATCHES_IN_FLIGHT);
  }

  /** The statement's rows, once it is committed. */
  rows<Row>(statement: Statement<Row>, values: unknown[]): Promise<Row[]> {
    return new Promise<Row[]>((resolve, reject) => this.enqueue({ statement, values, queuedAt: performance.now(), resolve: resolve as (rows: unknown[]) => void, reject }));
  }

  /** The oldest statements; any that waited too long fail without being sent. */
  protected takeBatch(): Entry[] {
    const now = performance.now();
    let taken = 0;
    const batch: Entry[] = [];
    for (; taken < this.queue.length && batch.length < MAX_STATEMENTS_PER_BATCH; taken++) {
      const entry = this.queue[taken]!;
      if (now - entry.queuedAt > this.maxQueuedMs) entry.reject(new StatementWaitTimeoutError());
      else batch.push(entry);
    }
    this.queue.splice(0, taken);
    return batch;
  }

  protected async runBatch(batch: Entry[]): Promise<void> {
    if (batch.length === 1) return this.runAlone(batch[0]!);
    let results: unknown[][];
    try {
      results = await this.transactions.runStatementsCheckingCommit(batch);
    } catch (err) {
      const failures = err instanceof BatchWorkFailed ? (err.failures as ReadonlyMap<Entry, unknown>) : undefined;
      const unavailable = failures && [...failures.values()].find(isDatabaseUnavailable);
      if (!failures || unavailable) return batch.forEach((entry) => entry.reject(unavailable ?? err));
      for (const [entry, reason] of failures) entry.reject(reason);
      const others = batch.filter((entry) => !failures.has(entry));
      if (others.length > 0) await this.runBatch(others);
      return;
    }
    batch.forEach((entry, i) => entry.resolve(results[i]!));
  }

  private async runAlone(entry: Entry): Promise<void> {
    try {
      entry.resolve(await this.prepared.rows(entry.statement, entry.values));
    } catch (err) {
      entry.reject(err);
    }
  }
}

import { BatchQueue } from '../concurrency/batch-queue.js';
import { PreparedStatements } from './prepared-statements.js';
import type { TransactionRunner } from './transaction.js';

interface Entry {
  text: string;
  values: unknown[];
  resolve: (rows: unknown[]) => void;
  reject: (reason: unknown) => void;
}

/** The most statements one transaction carries. */
const MAX_STATEMENTS_PER_BATCH = 32;
/** Transactions under way at once: the next batch gathers while they are stored. */
const MAX_BATCHES_IN_FLIGHT = 2;

/**
 * Runs statements that do not depend on each other (each one atomic on its own, taking no lock
 * another could wait for) and arrive at the same moment in one transaction: they go out
 * together on the pipelined connection and one `COMMIT` covers them all, so Postgres wakes,
 * commits and flushes its WAL once per batch instead of once per statement
 * (docs/benchmarks.md). A statement that arrives alone runs alone, without a transaction.
 *
 * When a statement in a batch fails, nothing of the batch is stored and every statement of it
 * runs again alone, each settling with its own outcome: a caller whose input Postgres refuses
 * costs the others one more attempt at most. When the transaction itself fails (its
 * connection, its `COMMIT`), every statement fails with that error, as it would have alone.
 */
export class StatementBatches extends BatchQueue<Entry> {
  constructor(private readonly prepared: PreparedStatements, private readonly transactions: TransactionRunner) {
    super(MAX_BATCHES_IN_FLIGHT);
  }

  /** The statement's rows, once it is committed. */
  rows<T>(text: string, values: unknown[]): Promise<T[]> {
    return new Promise<T[]>((resolve, reject) => this.enqueue({ text, values, resolve: resolve as (rows: unknown[]) => void, reject }));
  }

  protected takeBatch(): Entry[] {
    return this.queue.splice(0, MAX_STATEMENTS_PER_BATCH);
  }

  protected async runBatch(batch: Entry[]): Promise<void> {
    if (batch.length === 1) return this.runAlone(batch[0]!);
    let results: unknown[][];
    try {
      results = await this.transactions.run(async (tx) => {
        const settled = await Promise.allSettled(batch.map((entry) => PreparedStatements.rowsIn(tx, entry.text, entry.values)));
        if (settled.some((outcome) => outcome.status === 'rejected')) throw new StatementFailed();
        return settled.map((outcome) => (outcome as PromiseFulfilledResult<unknown[]>).value);
      });
    } catch (err) {
      if (err instanceof StatementFailed) await Promise.all(batch.map((entry) => this.runAlone(entry)));
      else batch.forEach((entry) => entry.reject(err));
      return;
    }
    batch.forEach((entry, i) => entry.resolve(results[i]!));
  }

  private async runAlone(entry: Entry): Promise<void> {
    try {
      entry.resolve(await this.prepared.rows(entry.text, entry.values));
    } catch (err) {
      entry.reject(err);
    }
  }
}

/** A statement of a batch failed, before its COMMIT was sent. */
class StatementFailed extends Error {
  constructor() {
    super('a statement in a batch failed');
  }
}

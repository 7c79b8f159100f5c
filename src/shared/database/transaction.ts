import { isLockConflict } from './database-errors.js';
import type { Statement } from './typed-statement.js';

/**
 * A database transaction as ports see it: opaque, so domain and application code can run
 * several repositories in one transaction without knowing TypeORM.
 */
export interface Transaction {
  readonly __transaction: unique symbol;
}

export abstract class TransactionRunner {
  abstract run<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;

  /**
   * As `run`, for work that takes row locks in an order another transaction may cross: when
   * Postgres breaks the transaction off as a deadlock's loser (40P01) or a serialization
   * conflict's (40001), it kept nothing, and the work runs again in a new one, up to `attempts`
   * transactions in all (the loser meets the same conflict again only by bad luck); past them
   * the conflict's error is thrown (a 503, error-response.ts).
   */
  async runRetryingConflicts<T>(work: (tx: Transaction) => Promise<T>, attempts = 3): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.run(work);
      } catch (err) {
        if (attempt >= attempts || !isLockConflict(err)) throw err;
      }
    }
  }

  /**
   * As `run`, for work whose callers cannot simply try again (they would store it twice) or
   * share the transaction with others: when its `COMMIT` goes unanswered (the connection lost,
   * the answer timed out), whether it committed is found out on another connection, and a
   * transaction that did commit answers the work's value as if the `COMMIT` had been answered.
   * It fails as `run` does when that cannot be found out in a few seconds.
   */
  abstract runCheckingCommit<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;

  /**
   * Prepared statements (PreparedStatements) that need nothing but each other in one
   * transaction, its `COMMIT` checked as in `runCheckingCommit`: `BEGIN`, the transaction id's
   * read and every statement go out in one round trip, as no code of the caller runs inside it.
   * Answers each statement's rows, or throws as `runCheckingCommit` with `runTogether`'s
   * BatchWorkFailed (keyed by the statements at fault).
   */
  abstract runStatementsCheckingCommit(statements: readonly SqlStatement[]): Promise<unknown[][]>;
}

/** A typed statement (typed-statement.ts) with its parameters. */
export interface SqlStatement {
  readonly statement: Statement<unknown>;
  readonly values: unknown[];
}

import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type pg from 'pg';
import type { DataSource, EntityManager, QueryRunner } from 'typeorm';
import { isDatabaseUnavailable } from './database-errors.js';
import { type Transaction, TransactionRunner } from './transaction.js';

const CURRENT_XACT_SQL = 'SELECT pg_current_xact_id()::text AS xact';
/** `committed`, `aborted`, `in progress`, or null for a transaction too old to tell. */
const XACT_STATUS_SQL = 'SELECT pg_xact_status($1::xid8) AS status';
/** A COMMIT still under way (a slow disk, a waiting synchronous standby) is waited for this long, then taken as failed. */
const COMMIT_CHECK_MS = 5_000;

/**
 * Transactions on a connection of TypeORM's pool, begun without a round trip of their own: the
 * pool's connections are pipelined (data-source-options.ts), so `BEGIN` goes out with the work's
 * first statement, where TypeORM's `transaction()` waits for its `START TRANSACTION` to come back.
 */
@Injectable()
export class TypeOrmTransactionRunner extends TransactionRunner {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    super();
  }

  run<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.transaction(work, false);
  }

  runCheckingCommit<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.transaction(work, true);
  }

  private async transaction<T>(work: (tx: Transaction) => Promise<T>, checkCommit: boolean): Promise<T> {
    const runner = this.dataSource.createQueryRunner();
    try {
      const client = (await runner.connect()) as pg.PoolClient;
      const begun = client.query('BEGIN');
      // Read ahead of the work's statements, so that it is known even when one of them fails;
      // a failure of its own is the transaction's, answered by the work or COMMIT.
      const xact = checkCommit ? client.query<{ xact: string }>(CURRENT_XACT_SQL) : undefined;
      xact?.catch(() => undefined);
      markTransaction(runner, true);
      // Both are awaited whatever the other answered; COMMIT or ROLLBACK then goes out behind
      // anything the work left in flight, and the connection is idle once it is answered.
      const [began, done] = await Promise.allSettled([begun, Promise.resolve().then(() => work(runner.manager as unknown as Transaction))]);
      try {
        if (began.status === 'rejected') throw began.reason;
        if (done.status === 'rejected') throw done.reason;
        const xactId = xact && (await xact).rows[0]!.xact;
        await client.query('COMMIT').catch(async (err: unknown) => {
          if (!xactId || !isDatabaseUnavailable(err) || !(await this.committed(xactId))) throw err;
        });
        return done.value;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      }
    } finally {
      markTransaction(runner, false);
      await runner.release();
    }
  }

  /**
   * Whether the transaction committed, asked on a connection of its own until Postgres knows
   * (an unanswered COMMIT may still be under way) or COMMIT_CHECK_MS have passed.
   */
  private async committed(xact: string): Promise<boolean> {
    const deadline = performance.now() + COMMIT_CHECK_MS;
    for (let pause = 50; ; pause = Math.min(pause * 2, 1_000)) {
      const status = await this.dataSource.query<{ status: string | null }[]>(XACT_STATUS_SQL, [xact]).then(([row]) => row!.status, () => 'unknown');
      if (status === 'committed') return true;
      if (status !== 'in progress' && status !== 'unknown') return false;
      if (performance.now() + pause > deadline) return false;
      await sleep(pause);
    }
  }
}

/**
 * The state TypeORM's own `startTransaction()` leaves on its runner (typed read-only and
 * protected): while it is set, TypeORM-level code on the runner joins this transaction, a
 * transaction nested in it is a savepoint, and PreparedStatements.rowsIn accepts the runner.
 */
function markTransaction(runner: QueryRunner, active: boolean): void {
  const state = runner as unknown as { isTransactionActive: boolean; transactionDepth: number };
  state.isTransactionActive = active;
  state.transactionDepth = active ? 1 : 0;
}

/** The EntityManager behind a Transaction handed out by TypeOrmTransactionRunner. */
export function entityManager(tx: Transaction): EntityManager {
  return tx as unknown as EntityManager;
}

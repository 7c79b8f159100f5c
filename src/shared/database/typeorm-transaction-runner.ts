import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type pg from 'pg';
import type { DataSource, EntityManager, QueryRunner } from 'typeorm';
import { type Transaction, TransactionRunner } from './transaction.js';

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

  async run<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    const runner = this.dataSource.createQueryRunner();
    try {
      const client = (await runner.connect()) as pg.PoolClient;
      const begun = client.query('BEGIN');
      markTransaction(runner, true);
      // Both are awaited whatever the other answered; COMMIT or ROLLBACK then goes out behind
      // anything the work left in flight, and the connection is idle once it is answered.
      const [began, done] = await Promise.allSettled([begun, Promise.resolve().then(() => work(runner.manager as unknown as Transaction))]);
      try {
        if (began.status === 'rejected') throw began.reason;
        if (done.status === 'rejected') throw done.reason;
        await client.query('COMMIT');
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

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
      // The work is awaited to its end whatever BEGIN answered: it must not use the connection after it went back to the pool.
      const [began, done] = await Promise.allSettled([begun, work(runner.manager as unknown as Transaction)]);
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
 * The flag TypeORM's own `startTransaction()` sets (its type says read-only): while it is set,
 * TypeORM-level code on the runner joins this transaction instead of starting one, and
 * PreparedStatements.rowsIn accepts the runner.
 */
function markTransaction(runner: QueryRunner, active: boolean): void {
  (runner as { isTransactionActive: boolean }).isTransactionActive = active;
}

/** The EntityManager behind a Transaction handed out by TypeOrmTransactionRunner. */
export function entityManager(tx: Transaction): EntityManager {
  return tx as unknown as EntityManager;
}

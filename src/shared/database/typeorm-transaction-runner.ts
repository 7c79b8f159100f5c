import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type pg from 'pg';
import type { DataSource, EntityManager } from 'typeorm';
import { runTogether } from './batch-work.js';
import { isDatabaseUnavailable } from './database-errors.js';
import { PreparedStatements } from './prepared-statements.js';
import { type SqlStatement, type Transaction, TransactionRunner } from './transaction.js';
import { firstRowOf, statement } from './persistence.js';
import { column, type RowOf } from './typed-statement.js';

const XACT_COLUMNS = { xact: column.text };
/** Sent unnamed on the batch's own client, in its round trip (see runStatementsCheckingCommit). */
const CURRENT_XACT = statement('SELECT pg_current_xact_id()::text AS xact', XACT_COLUMNS);
/** `committed`, `aborted`, `in progress`, or null for a transaction too old to tell. */
const XACT_STATUS = statement('SELECT pg_xact_status($1::xid8) AS status', { status: column.nullable(column.textOf<'committed' | 'aborted' | 'in progress'>()) });
/** A COMMIT still under way (a slow disk, a waiting synchronous standby) is waited for this long, then taken as failed. */
const COMMIT_CHECK_MS = 5_000;

/**
 * Transactions on a connection of TypeORM's pool, through its public QueryRunner API
 * (`startTransaction`, `commitTransaction`, `rollbackTransaction`): TypeORM keeps the runner's
 * transaction state itself, so its own code on the runner joins the transaction and a
 * transaction opened inside one is a savepoint. The only way the service opens a transaction.
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

  /**
   * On the pg client the runner holds (public `connect()`), pipelined: `BEGIN`, the transaction
   * id's read and the statements are sent back to back, where `startTransaction` waits for its
   * `START TRANSACTION` to come back before anything else is sent. TypeORM never sees this
   * transaction: no Transaction is handed out, so no TypeORM code runs in it and its runner state
   * stays that of an idle connection.
   */
  async runStatementsCheckingCommit(statements: readonly SqlStatement[]): Promise<unknown[][]> {
    const runner = this.dataSource.createQueryRunner();
    try {
      const client = (await runner.connect()) as pg.PoolClient;
      // pg writes each query to the socket as it is queued (the connection is pipelined): corked,
      // the whole batch leaves in one write, which wakes the Postgres backend once, where a
      // write per statement costs the server a system call each.
      const socket = (client as unknown as pg.Client).connection.stream;
      socket.cork();
      let begun: Promise<unknown>, xact: Promise<{ xact: string }[]>, stored: Promise<unknown[][]>;
      try {
        begun = client.query('BEGIN');
        xact = client.query<RowOf<typeof XACT_COLUMNS>>(CURRENT_XACT.text).then((r) => r.rows);
        stored = runTogether(statements, (s) => PreparedStatements.rowsOn(client, s.statement, s.values));
      } finally {
        socket.uncork();
      }
      xact.catch(() => undefined);
      // Both are awaited whatever the other answered; COMMIT or ROLLBACK then goes out behind
      // every statement, and the connection is idle once it is answered.
      const [began, done] = await Promise.allSettled([begun, stored]);
      try {
        if (began.status === 'rejected') throw began.reason;
        if (done.status === 'rejected') throw done.reason;
        await this.commitChecked(() => client.query('COMMIT'), xact);
        return done.value;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      }
    } finally {
      await runner.release();
    }
  }

  private async transaction<T>(work: (tx: Transaction) => Promise<T>, checkCommit: boolean): Promise<T> {
    const runner = this.dataSource.createQueryRunner();
    try {
      await runner.startTransaction();
      // Sent ahead of the work's statements (the connection is pipelined), so that it is known
      // even when one of them fails; a failure of its own is the transaction's, answered by the
      // work or COMMIT.
      // Straight on the runner's pg client (`connect()` hands out the one it holds): this is on
      // every intake batch's path, and TypeORM's own query() adds its bookkeeping to a statement.
      const xact = checkCommit ? ((await runner.connect()) as pg.PoolClient).query<RowOf<typeof XACT_COLUMNS>>(CURRENT_XACT.text).then((r) => r.rows) : undefined;
      xact?.catch(() => undefined);
      try {
        const value = await work(runner.manager as unknown as Transaction);
        await this.commitChecked(() => runner.commitTransaction(), xact);
        return value;
      } catch (err) {
        // ROLLBACK goes out behind anything the work left in flight on the connection.
        if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
        throw err;
      }
    } finally {
      await runner.release();
    }
  }

  /**
   * Sends `COMMIT`; when its answer does not come (the connection lost, the answer timed out)
   * and the transaction's id was read, the commit counts if the transaction turns out to have
   * committed.
   */
  private async commitChecked(commit: () => Promise<unknown>, xact: Promise<{ xact: string }[]> | undefined): Promise<void> {
    const xactId = xact && (await xact)[0]!.xact;
    await commit().catch(async (err: unknown) => {
      if (!xactId || !isDatabaseUnavailable(err) || !(await this.committed(xactId))) throw err;
    });
  }

  /**
   * Whether the transaction committed, asked on a connection of its own until Postgres knows
   * (an unanswered COMMIT may still be under way) or COMMIT_CHECK_MS have passed.
   */
  private async committed(xact: string): Promise<boolean> {
    const deadline = performance.now() + COMMIT_CHECK_MS;
    for (let pause = 50; ; pause = Math.min(pause * 2, 1_000)) {
      const status = await firstRowOf(this.dataSource, XACT_STATUS, [xact]).then((row) => row!.status, () => 'unknown');
      if (status === 'committed') return true;
      if (status !== 'in progress' && status !== 'unknown') return false;
      if (performance.now() + pause > deadline) return false;
      await sleep(pause);
    }
  }
}

/** The EntityManager behind a Transaction handed out by TypeOrmTransactionRunner. */
export function entityManager(tx: Transaction): EntityManager {
  return tx as unknown as EntityManager;
}

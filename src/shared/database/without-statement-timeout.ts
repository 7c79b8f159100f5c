import type { EntityManager } from 'typeorm';
import type { TransactionRunner } from './transaction.js';
import { rowsOf, statement } from './persistence.js';
import { entityManager } from './typeorm-transaction-runner.js';

const NO_STATEMENT_TIMEOUT = statement('SET LOCAL statement_timeout = 0');

/**
 * Runs `work` in a transaction whose statements Postgres lets run past the pool's
 * statement_timeout (data-source-options.ts). Only for the worker's maintenance (retention
 * purges, report folding): each of its statements is bounded by its batch size, but one that
 * meets a table grown large must finish, or the same batch would be cancelled on every pass and
 * the work never done. No request waits for it.
 */
export function withoutStatementTimeout<T>(transactions: TransactionRunner, work: (manager: EntityManager) => Promise<T>): Promise<T> {
  return transactions.run(async (tx) => {
    const manager = entityManager(tx);
    await rowsOf(manager, NO_STATEMENT_TIMEOUT);
    return work(manager);
  });
}

import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { DataSource } from 'typeorm';
import type { Transaction } from './transaction.js';
import { entityManager } from './typeorm-transaction-runner.js';

/**
 * Runs SQL as named prepared statements, on TypeORM's own pg pool or inside a transaction's
 * connection. Postgres parses and plans a named statement once per connection instead of on
 * every execution: for the intake statement and the engine's statements that is most of the
 * database's CPU per request.
 */
export class PreparedStatements {
  private readonly pool: pg.Pool;

  constructor(dataSource: DataSource) {
    this.pool = (dataSource.driver as unknown as { master: pg.Pool }).master;
  }

  /** Outside a transaction: one statement, on a pooled connection. */
  async rows<T>(text: string, values: unknown[]): Promise<T[]> {
    return (await this.pool.query(named(text, values))).rows as T[];
  }

  /** Inside `tx`, on its connection. */
  static async rowsIn<T>(tx: Transaction, text: string, values: unknown[]): Promise<T[]> {
    const connection = (entityManager(tx).queryRunner as unknown as { databaseConnection?: pg.PoolClient } | undefined)?.databaseConnection;
    if (!connection) throw new Error('not inside a transaction');
    return (await connection.query(named(text, values))).rows as T[];
  }
}

const names = new Map<string, string>();

/** The statement's name is derived from its text, so the same SQL always reuses one plan. */
function named(text: string, values: unknown[]): pg.QueryConfig {
  let name = names.get(text);
  if (!name) {
    name = `s_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    names.set(text, name);
  }
  return { name, text, values };
}

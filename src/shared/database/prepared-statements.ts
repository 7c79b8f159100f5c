import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { DataSource, QueryRunner } from 'typeorm';
import type { Transaction } from './transaction.js';
import { entityManager } from './typeorm-transaction-runner.js';
import type { Statement } from './typed-statement.js';

/**
 * Runs SQL as named prepared statements, on a pooled connection of TypeORM's or inside a
 * transaction's connection. Postgres parses and plans a named statement once per connection
 * instead of on every execution: for the intake statement and the engine's statements that is
 * most of the database's CPU per request. TypeORM's own `query()` cannot name a statement, so
 * the statement goes to the pg client that a QueryRunner's public `connect()` hands out.
 *
 * Infrastructure repositories reach Postgres through TypeORM's EntityManager / QueryRunner
 * (its entity API or `query()`); this is the one other tool, for the hot paths' statements
 * whose planning time counts (docs/architecture.md, How it works: one persistence style).
 */
export class PreparedStatements<Module extends string = string> {
  /** Modules make theirs with their persistence's `prepared` (module-persistence.ts), which takes their statements only. */
  constructor(private readonly dataSource: DataSource) {}

  /** Outside a transaction: one statement, on a connection taken from the pool and given back. */
  async rows<Row>(statement: Statement<Row, Module>, values: unknown[]): Promise<Row[]> {
    const runner = this.dataSource.createQueryRunner();
    try {
      return await run(runner, statement, values);
    } finally {
      await runner.release();
    }
  }

  /**
   * As `rows`, but planned for its parameters at every execution (an unnamed statement): for a
   * statement whose best plan depends on a parameter's value, where Postgres' cached generic plan
   * can cost a thousand times the custom one (a search's tsquery: a common word's first page walks
   * the list's index in 9 ms, a generic plan sorts its 100,000 matches in 1.2 s).
   */
  async planned<Row>(statement: Statement<Row, Module>, values: unknown[]): Promise<Row[]> {
    const runner = this.dataSource.createQueryRunner();
    try {
      return rowsAnswered(statement, await ((await runner.connect()) as pg.PoolClient).query({ text: statement.text, values }));
    } finally {
      await runner.release();
    }
  }

  /** Inside `tx`, on its connection. */
  static async rowsIn<Row>(tx: Transaction, statement: Statement<Row>, values: unknown[]): Promise<Row[]> {
    const runner = entityManager(tx).queryRunner;
    if (!runner?.isTransactionActive) throw new Error('not inside a transaction');
    return run(runner, statement, values);
  }

  /** On a pg client a QueryRunner's `connect()` handed out, sent at once (its connection is pipelined). */
  static async rowsOn<Row>(client: pg.ClientBase, statement: Statement<Row>, values: unknown[]): Promise<Row[]> {
    return rowsAnswered(statement, await client.query(named(statement.text, values)));
  }
}

/** `connect()` returns the runner's pg client: the one it already holds, or one from the pool. */
async function run<Row>(runner: QueryRunner, statement: Statement<Row>, values: unknown[]): Promise<Row[]> {
  return PreparedStatements.rowsOn((await runner.connect()) as pg.PoolClient, statement, values);
}

/** The rows of `statement`'s answer: the schema check (typed-statement.ts) proves their columns. */
function rowsAnswered<Row>(_statement: Statement<Row>, answer: pg.QueryResult): Row[] {
  return answer.rows as Row[];
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

import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/shared/database/data-source-options.js';
import { PreparedStatements } from '../../src/shared/database/prepared-statements.js';
import { StatementWaitTimeoutError } from '../../src/shared/database/database-errors.js';
import { StatementBatches } from '../../src/shared/database/statement-batches.js';
import { TransactionRunner } from '../../src/shared/database/transaction.js';
import { TypeOrmTransactionRunner } from '../../src/shared/database/typeorm-transaction-runner.js';
import { column } from '../../src/shared/database/typed-statement.js';
import { statement } from '../support/test-persistence.js';
import { startIntegrationContext, type IntegrationContext } from '../support/integration-context.js';
import { closeDb, db } from '../support/test-app.js';
import { whileLocked } from '../support/table-locks.js';
import { impatientDataSource, slowCommits } from '../support/unanswered-commits.js';

/** Stores a key and answers the transaction that stored it. */
const INSERT = statement('INSERT INTO batch_probe (key) VALUES ($1) RETURNING pg_current_xact_id()::text AS xact', { xact: column.text });
const INSERT_RETURNING_KEY = statement('INSERT INTO batch_probe (key) VALUES ($1) RETURNING key', { key: column.text });
const DIVISION_BY_ZERO = statement('SELECT 1/0 AS never', { never: column.int4 });
const SLEEP = statement('SELECT pg_sleep(0.5)', { pg_sleep: column.void });

describe('StatementBatches: independent statements arriving together share one transaction', () => {
  let ctx: IntegrationContext;
  let batches: StatementBatches;
  let prepared: PreparedStatements;
  before(async () => {
    ctx = await startIntegrationContext();
    prepared = new PreparedStatements(ctx.get<DataSource>(getDataSourceToken()));
    batches = new StatementBatches(prepared, ctx.get(TransactionRunner));
    // Unique only at COMMIT: two statements that each succeed can still fail the transaction.
    await db().query('CREATE TABLE batch_probe (key text UNIQUE DEFERRABLE INITIALLY DEFERRED)');
  });
  after(async () => {
    await db().query('DROP TABLE batch_probe');
    await ctx.close();
    await closeDb();
  });

  const insert = (key: string) => batches.rows(INSERT, [key]).then(([row]) => row!.xact);
  const stored = async (keys: string[]) => (await db().query<{ key: string }>('SELECT key FROM batch_probe WHERE key = ANY($1) ORDER BY key', [keys])).rows.map((r) => r.key);

  it('stores statements submitted in the same turn in one transaction, each answered with its own rows', async () => {
    const keys = ['together-a', 'together-b', 'together-c'];
    const answers = await Promise.all(keys.map((key) => batches.rows(INSERT_RETURNING_KEY, [key])));
    assert.deepEqual(answers, keys.map((key) => [{ key }]));
    const xacts = await db().query<{ n: number }>('SELECT count(DISTINCT xmin::text)::int AS n FROM batch_probe WHERE key = ANY($1)', [keys]);
    assert.equal(xacts.rows[0]!.n, 1);
  });

  it('runs a statement that arrives alone, later ones in a transaction of their own', async () => {
    const first = await insert('alone-1');
    const second = await insert('alone-2');
    assert.notEqual(first, second);
    assert.deepEqual(await stored(['alone-1', 'alone-2']), ['alone-1', 'alone-2']);
  });

  it('fails only the statements that failed: the others run again together in a new transaction, and are stored', async () => {
    const outcomes = await Promise.allSettled([insert('kept-1'), batches.rows(DIVISION_BY_ZERO, []), insert('kept-2'), batches.rows(DIVISION_BY_ZERO, []), insert('kept-3')]);
    for (const i of [1, 3]) {
      assert.equal(outcomes[i]!.status, 'rejected');
      assert.match(String((outcomes[i] as PromiseRejectedResult).reason), /division by zero/);
    }
    const kept = [outcomes[0], outcomes[2], outcomes[4]].map((o) => (o as PromiseFulfilledResult<string>).value);
    assert.equal(new Set(kept).size, 1);
    assert.deepEqual(await stored(['kept-1', 'kept-2', 'kept-3']), ['kept-1', 'kept-2', 'kept-3']);
  });

  it('fails every statement when the transaction itself fails at COMMIT, and stores none of them', async () => {
    const outcomes = await Promise.allSettled([insert('twice'), insert('twice'), insert('bystander')]);
    for (const outcome of outcomes) {
      assert.equal(outcome.status, 'rejected');
      assert.match(String((outcome as PromiseRejectedResult).reason), /duplicate key/);
    }
    assert.deepEqual(await stored(['twice', 'bystander']), []);
  });

  it('answers every statement with its rows when the COMMIT went unanswered but the batch committed, each stored once', async () => {
    const dataSource = await impatientDataSource();
    const dropSlowCommits = await slowCommits('batch_probe', "NEW.key LIKE 'unanswered-%'");
    try {
      const impatient = new StatementBatches(new PreparedStatements(dataSource), new TypeOrmTransactionRunner(dataSource));
      const keys = ['unanswered-a', 'unanswered-b', 'unanswered-c'];
      const xacts = await Promise.all(keys.map((key) => impatient.rows(INSERT, [key]).then(([row]) => row!.xact)));
      assert.equal(new Set(xacts).size, 1, 'one transaction stored them');
      assert.deepEqual(await stored(keys), keys);
    } finally {
      await dropSlowCommits();
      await dataSource.destroy();
    }
  });

  it('fails each statement with its own cancellation when the first Parse of their statement waits for a lock past statement_timeout, never as an unknown statement', async () => {
    // Text no connection has parsed yet: its first Parse waits for the lock, and pg sends the
    // uses queued behind it on the same connection without a Parse of their own.
    const unparsed = statement(`INSERT INTO batch_probe (key) VALUES ($1) RETURNING key /* ${randomUUID()} */`, { key: column.text });
    const options = dataSourceOptions({ DATABASE_URL: process.env.DATABASE_URL!, DATABASE_STATEMENT_TIMEOUT_MS: 300 });
    const dataSource = await new DataSource({ ...options, extra: { ...options.extra, max: 1 } } as typeof options).initialize();
    try {
      const impatient = new StatementBatches(new PreparedStatements(dataSource), new TypeOrmTransactionRunner(dataSource));
      const keys = ['locked-1', 'locked-2', 'locked-3'];
      const outcomes = await whileLocked(['batch_probe'], () => Promise.allSettled(keys.map((key) => impatient.rows(unparsed, [key]))));
      for (const outcome of outcomes) {
        assert.equal(outcome.status, 'rejected');
        const reason = (outcome as PromiseRejectedResult).reason as { code?: string };
        assert.equal(reason.code, '57014', String(reason));
      }
      assert.deepEqual(await stored(keys), []);
      assert.deepEqual(await impatient.rows(unparsed, ['after-the-lock']), [{ key: 'after-the-lock' }]);
    } finally {
      await dataSource.destroy();
    }
  });

  it('refuses a statement that waited too long to be sent (both transactions busy), without sending it', async () => {
    const impatient = new StatementBatches(prepared, ctx.get(TransactionRunner), 100);
    const nextTurn = () => new Promise((resolve) => setTimeout(resolve, 20));
    // Submitted in turns of their own, each sleep is a batch of one: both places are taken.
    const busy = [impatient.rows(SLEEP, [])];
    await nextTurn();
    busy.push(impatient.rows(SLEEP, []));
    await nextTurn();
    await assert.rejects(impatient.rows(INSERT, ['too-late']), StatementWaitTimeoutError);
    await Promise.all(busy);
    assert.deepEqual(await stored(['too-late']), []);
  });
});

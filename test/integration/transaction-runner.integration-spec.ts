import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { DataSource } from 'typeorm';
import { BatchWorkFailed } from '../../src/shared/database/batch-work.js';
import { PreparedStatements } from '../../src/shared/database/prepared-statements.js';
import { entityManager, TypeOrmTransactionRunner } from '../../src/shared/database/typeorm-transaction-runner.js';
import { type Transaction, TransactionRunner } from '../../src/shared/database/transaction.js';
import { column } from '../../src/shared/database/typed-statement.js';
import { statement } from '../support/test-persistence.js';
import { startIntegrationContext, type IntegrationContext } from '../support/integration-context.js';
import { closeDb, db } from '../support/test-app.js';
import { impatientDataSource, slowCommits } from '../support/unanswered-commits.js';

const XACT = statement('SELECT pg_current_xact_id()::text AS xact', { xact: column.text });
const INSERT = statement('INSERT INTO organizations (name) VALUES ($1) RETURNING id', { id: column.int8 });
const DIVISION_BY_ZERO = statement('SELECT 1 / 0 AS never', { never: column.int4 });
const NUMBER = statement('SELECT $1::int AS v', { v: column.int4 });
const COUNT_SQL = 'SELECT count(*)::int AS n FROM organizations WHERE name = $1';

describe('TransactionRunner: BEGIN sent with the work\'s first statement', () => {
  let ctx: IntegrationContext;
  let transactions: TransactionRunner;
  before(async () => {
    ctx = await startIntegrationContext();
    transactions = ctx.get(TransactionRunner);
  });
  after(async () => {
    await ctx.close();
    await closeDb();
  });

  const stored = async (name: string) => (await db().query(COUNT_SQL, [name])).rows[0].n as number;

  /** The work fails with `error`, and nothing it stored under `name` stays. */
  async function rolledBack(name: string, work: (tx: Transaction) => Promise<unknown>, error: RegExp): Promise<void> {
    await assert.rejects(transactions.run(work), error);
    assert.equal(await stored(name), 0);
  }

  it('runs the work\'s statements, sent together or one by one, in one transaction, and commits it', async () => {
    const name = `tx-${randomUUID()}`;
    const xacts = await transactions.run(async (tx) => {
      const together = await Promise.all([PreparedStatements.rowsIn(tx, XACT, []), PreparedStatements.rowsIn(tx, INSERT, [name])]);
      const [later] = await PreparedStatements.rowsIn(tx, XACT, []);
      return [together[0][0]!.xact, later!.xact];
    });
    assert.equal(xacts[0], xacts[1]);
    assert.equal(await stored(name), 1);
  });

  it('rolls back everything when the work fails, and the failure reaches the caller', async () => {
    const name = `tx-${randomUUID()}`;
    await rolledBack(name, async (tx) => {
      await PreparedStatements.rowsIn(tx, INSERT, [name]);
      throw new Error('the work failed');
    }, /the work failed/);
  });

  it('makes a transaction nested in the work a savepoint: the work failing afterwards rolls it back too', async () => {
    const name = `tx-${randomUUID()}`;
    await rolledBack(name, async (tx) => {
      await entityManager(tx).transaction((nested) => nested.query(INSERT.text, [name]));
      assert.equal((await PreparedStatements.rowsIn(tx, statement(COUNT_SQL, { n: column.int4 }), [name]))[0]!.n, 1);
      throw new Error('the work failed after its nested transaction');
    }, /after its nested transaction/);
  });

  it('rolls back when a statement fails, and the next transactions on the pool run normally', async () => {
    const name = `tx-${randomUUID()}`;
    await rolledBack(name, async (tx) => {
      await PreparedStatements.rowsIn(tx, INSERT, [name]);
      await PreparedStatements.rowsIn(tx, DIVISION_BY_ZERO, []);
    }, /division by zero/);
    // A statement that fails while another is still in flight: ROLLBACK goes out behind it.
    await rolledBack(name, (tx) => Promise.all([PreparedStatements.rowsIn(tx, DIVISION_BY_ZERO, []), PreparedStatements.rowsIn(tx, INSERT, [name])]), /division by zero/);
    const many = await Promise.all(Array.from({ length: 12 }, (_, i) => transactions.run(async (tx) => (await PreparedStatements.rowsIn(tx, NUMBER, [i]))[0]!.v)));
    assert.deepEqual(many, Array.from({ length: 12 }, (_, i) => i));
  });

  it('runs prepared statements sent with their BEGIN in one transaction, commits it, and a failing one stores none and names itself', async () => {
    const name = `tx-${randomUUID()}`;
    const [first, inserted, second] = await transactions.runStatementsCheckingCommit([
      { statement: XACT, values: [] },
      { statement: INSERT, values: [name] },
      { statement: XACT, values: [] },
    ]);
    assert.equal((first as { xact: string }[])[0]!.xact, (second as { xact: string }[])[0]!.xact, 'one transaction, not one per statement');
    assert.equal(inserted!.length, 1);
    assert.equal(await stored(name), 1);
    const other = `tx-${randomUUID()}`;
    const failing = { statement: DIVISION_BY_ZERO, values: [] };
    await assert.rejects(transactions.runStatementsCheckingCommit([{ statement: INSERT, values: [other] }, failing]), (err: unknown) => {
      assert.ok(err instanceof BatchWorkFailed);
      assert.deepEqual([...(err.failures as ReadonlyMap<unknown, unknown>).keys()], [failing]);
      return true;
    });
    assert.equal(await stored(other), 0);
  });
});

describe('TransactionRunner.runCheckingCommit: a COMMIT left unanswered', () => {
  let dataSource: DataSource;
  let transactions: TransactionRunner;
  let dropSlowCommits: () => Promise<void>;
  before(async () => {
    dataSource = await impatientDataSource();
    transactions = new TypeOrmTransactionRunner(dataSource);
    await db().query('CREATE TABLE commit_probe (name text)');
    dropSlowCommits = await slowCommits('commit_probe', "NEW.name LIKE 'slow-%'", "NEW.name LIKE 'slow-refused-%'");
  });
  after(async () => {
    await dropSlowCommits();
    await db().query('DROP TABLE commit_probe');
    await dataSource.destroy();
    await closeDb();
  });

  const probe = statement('INSERT INTO commit_probe (name) VALUES ($1) RETURNING name', { name: column.text });
  const insert = (tx: Transaction, name: string) => PreparedStatements.rowsIn(tx, probe, [name]);
  const stored = async (name: string) => (await db().query('SELECT count(*)::int AS n FROM commit_probe WHERE name = $1', [name])).rows[0].n as number;

  it('answers the work\'s value when the transaction turns out to have committed, stored once', async () => {
    const name = `slow-${randomUUID()}`;
    const answered = await transactions.runCheckingCommit(async (tx) => (await insert(tx, name))[0]!.name);
    assert.equal(answered, name);
    assert.equal(await stored(name), 1);
  });

  it('fails with the unanswered COMMIT\'s error when the transaction turns out rolled back', async () => {
    const name = `slow-refused-${randomUUID()}`;
    await assert.rejects(transactions.runCheckingCommit((tx) => insert(tx, name)), /Query read timeout/);
    assert.equal(await stored(name), 0);
  });

});

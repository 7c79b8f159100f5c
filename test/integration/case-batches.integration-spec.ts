import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { CaseBatches, type CaseWork } from '../../src/modules/automation/application/case-batches.js';
import { CaseRepository } from '../../src/modules/cases/domain/case.repository.js';
import { CaseStatementParts } from '../../src/modules/cases/domain/case-statement-parts.js';
import { CaseMetrics } from '../../src/modules/cases/infrastructure/case-metrics.js';
import { PostgresCaseRepository } from '../../src/modules/cases/infrastructure/postgres-case.repository.js';
import { dataSourceOptions } from '../../src/shared/database/data-source-options.js';
import { PreparedStatements } from '../../src/shared/database/prepared-statements.js';
import { TransactionRunner } from '../../src/shared/database/transaction.js';
import { TypeOrmTransactionRunner } from '../../src/shared/database/typeorm-transaction-runner.js';
import { column } from '../../src/shared/database/typed-statement.js';
import { statement } from '../support/test-persistence.js';
import { startIntegrationContext, type IntegrationContext } from '../support/integration-context.js';
import { givenCase, type WorkflowCase } from '../support/integration-fixtures.js';
import { waitingBackends } from '../support/table-locks.js';
import { closeDb, db } from '../support/test-app.js';
import { impatientDataSource, slowCommits } from '../support/unanswered-commits.js';

const XACT = statement('SELECT pg_current_xact_id()::text AS xact', { xact: column.text });
const SET_SUBJECT = statement('UPDATE cases SET subject = $2 WHERE id = $1');
const DIVISION_BY_ZERO = statement('SELECT 1/0 AS never', { never: column.int4 });
const PROBE = statement('INSERT INTO case_batch_probe (note) VALUES ($1)');
const SEQUENTIAL_SCANS = statement(
  `SELECT coalesce(sum(seq_scan), 0)::int AS scans FROM pg_stat_xact_user_tables WHERE relname = 'cases' OR relname LIKE 'workflow\\_runs%'`,
  { scans: column.int4 },
);

interface Seen {
  xact: string;
  /** The case as the work found it: its subject, null when it was not found. */
  subject: string | null;
}

describe('CaseBatches: work on different cases due together shares one transaction', () => {
  let ctx: IntegrationContext;
  let cases: CaseRepository;
  let batches: CaseBatches;
  let sample: WorkflowCase[];
  before(async () => {
    ctx = await startIntegrationContext();
    cases = ctx.get(CaseRepository);
    batches = new CaseBatches(cases, ctx.get(TransactionRunner));
    sample = [];
    for (let i = 0; i < 3; i += 1) sample.push(await givenCase(ctx, {}));
  });
  after(async () => {
    await ctx.close();
    await closeDb();
  });

  /** Renames the case (when found) and reports the transaction it ran in. */
  const rename = (subject: string): CaseWork<Seen> => async (tx, found) => {
    const [{ xact }] = (await PreparedStatements.rowsIn(tx, XACT, [])) as [{ xact: string }];
    const seen = { xact, subject: found?.snapshot().subject ?? null };
    if (found) await PreparedStatements.rowsIn(tx, SET_SUBJECT, [found.id, subject]);
    return seen;
  };
  const subjectOf = async (caseId: number) => (await db().query<{ subject: string }>('SELECT subject FROM cases WHERE id = $1', [caseId])).rows[0]!.subject;

  it('runs the work of cases submitted in the same turn in one transaction, each on its own case, and commits them all', async () => {
    const seen = await Promise.all(sample.map((c, i) => batches.run(c.caseId, rename(`batched ${i}`))));
    assert.equal(new Set(seen.map((s) => s.xact)).size, 1);
    for (const [i, c] of sample.entries()) assert.equal(await subjectOf(c.caseId), `batched ${i}`);
  });

  it('runs a second piece of work for a case in a later transaction, which sees what the first one stored', async () => {
    const [{ caseId }] = sample as [WorkflowCase];
    const [first, second] = await Promise.all([batches.run(caseId, rename('first')), batches.run(caseId, rename('second'))]);
    assert.notEqual(first.xact, second.xact);
    assert.equal(second.subject, 'first');
    assert.equal(await subjectOf(caseId), 'second');
  });

  it('gives work for a case that does not exist no case, and stores the others', async () => {
    const [{ caseId }] = sample as [WorkflowCase];
    const [missing, found] = await Promise.all([batches.run(2 ** 52, rename('nobody')), batches.run(caseId, rename('found'))]);
    assert.equal(missing.subject, null);
    assert.equal(found.xact, missing.xact);
    assert.equal(await subjectOf(caseId), 'found');
  });

  it('fails only the work that failed: the others run again together in a new transaction, and are stored', async () => {
    const failing: CaseWork<Seen> = async (tx) => {
      await PreparedStatements.rowsIn(tx, DIVISION_BY_ZERO, []);
      throw new Error('not reached: the statement fails');
    };
    const [a, b, c] = sample as [WorkflowCase, WorkflowCase, WorkflowCase];
    const outcomes = await Promise.allSettled([batches.run(a.caseId, rename('kept a')), batches.run(b.caseId, failing), batches.run(c.caseId, rename('kept c'))]);
    assert.equal(outcomes[1].status, 'rejected');
    assert.match(String((outcomes[1] as PromiseRejectedResult).reason), /division by zero/);
    const [kept, , keptToo] = outcomes as [PromiseFulfilledResult<Seen>, unknown, PromiseFulfilledResult<Seen>];
    assert.equal(kept.value.xact, keptToo.value.xact);
    assert.equal(await subjectOf(a.caseId), 'kept a');
    assert.equal(await subjectOf(c.caseId), 'kept c');
  });

  it('answers the work of a batch whose COMMIT went unanswered but committed, so it goes on without a retry', async () => {
    const dataSource = await impatientDataSource();
    await db().query('CREATE TABLE case_batch_probe (note text)');
    const dropSlowCommits = await slowCommits('case_batch_probe', 'true');
    try {
      const transactions = new TypeOrmTransactionRunner(dataSource);
      const impatient = new CaseBatches(new PostgresCaseRepository(dataSource, ctx.get(CaseMetrics), transactions, ctx.get(CaseStatementParts)), transactions);
      const slowRename = (subject: string): CaseWork<Seen> => async (tx, found) => {
        await PreparedStatements.rowsIn(tx, PROBE, [subject]);
        return rename(subject)(tx, found);
      };
      const seen = await Promise.all(sample.map((c, i) => impatient.run(c.caseId, slowRename(`unanswered ${i}`))));
      assert.equal(new Set(seen.map((s) => s.xact)).size, 1);
      for (const [i, c] of sample.entries()) assert.equal(await subjectOf(c.caseId), `unanswered ${i}`);
    } finally {
      await dropSlowCommits();
      await db().query('DROP TABLE case_batch_probe');
      await dataSource.destroy();
    }
  });

  it('reads and writes cases and runs through their keys\' indexes, however small the tables: a plan made while they were small is kept as they grow', async () => {
    const [{ caseId }] = sample as [WorkflowCase];
    const scans = await batches.run(caseId, async (tx, found) => {
      // Past the sixth execution on the connection, where a named statement's generic plan is made.
      for (let i = 0; i < 7; i += 1) {
        found!.mergeAttributes(`{"n":${i}}`, ['n'], { kind: 'automation' });
        await cases.save(tx, found!);
      }
      return (await PreparedStatements.rowsIn(tx, SEQUENTIAL_SCANS, []))[0]!.scans;
    });
    assert.equal(scans, 0);
  });

  it("is not cut off by the pool's statement_timeout: a batch that a busy database holds up past it (here its case's lock, held elsewhere) finishes, instead of failing its work", async () => {
    const dataSource = await new DataSource(dataSourceOptions({ DATABASE_URL: process.env.DATABASE_URL!, DATABASE_STATEMENT_TIMEOUT_MS: 100 })).initialize();
    const holder = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await holder.connect();
    try {
      const transactions = new TypeOrmTransactionRunner(dataSource);
      const busy = new CaseBatches(new PostgresCaseRepository(dataSource, ctx.get(CaseMetrics), transactions, ctx.get(CaseStatementParts)), transactions);
      const [{ caseId }] = sample as [WorkflowCase];
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM cases WHERE id = $1 FOR UPDATE', [caseId]);
      const renamed = busy.run(caseId, rename('after the wait'));
      renamed.catch(() => undefined);
      while ((await waitingBackends()) === 0) await sleep(10);
      // Three times the statement_timeout after the batch's lock statement began to wait.
      await sleep(300);
      await holder.query('COMMIT');
      await renamed;
      assert.equal(await subjectOf(caseId), 'after the wait');
    } finally {
      await holder.end();
      await dataSource.destroy();
    }
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Case } from '../../src/modules/cases/domain/case.js';
import { CaseRepository } from '../../src/modules/cases/domain/case.repository.js';
import { TransactionRunner } from '../../src/shared/database/transaction.js';
import { startIntegrationContext, type IntegrationContext } from '../support/integration-context.js';
import { givenCase, type WorkflowCase } from '../support/integration-fixtures.js';
import { closeDb, db } from '../support/test-app.js';

interface RunRow {
  id: string;
  status: string;
  state: string;
  current_step: number;
  step_attempts: number;
  attempts: number;
  chain_depth: number;
  error: string | null;
  leased: boolean;
  resume_at: Date | null;
  started: boolean;
  finished: boolean;
}

describe('CaseRepository: a case\'s runs and their timeline', () => {
  let ctx: IntegrationContext;
  let cases: CaseRepository;
  let transactions: TransactionRunner;
  before(async () => {
    ctx = await startIntegrationContext();
    cases = ctx.get(CaseRepository);
    transactions = ctx.get(TransactionRunner);
  });
  after(async () => {
    await ctx.close();
    await closeDb();
  });

  /** Loads the case under its lock, lets `work` change it, and saves it, in one transaction. */
  function change(caseId: number, work: (subject: Case) => void): Promise<void> {
    return transactions.run(async (tx) => {
      const subject = (await cases.load(tx, [caseId])).get(caseId)!;
      work(subject);
      await cases.save(tx, subject);
    });
  }

  async function runs(caseId: number): Promise<RunRow[]> {
    const { rows } = await db().query<RunRow>(
      `SELECT id, status, state, current_step, step_attempts, attempts, chain_depth, error, resume_at,
              locked_until > now() AS leased, started_at IS NOT NULL AS started, finished_at IS NOT NULL AS finished
       FROM workflow_runs WHERE case_id = $1 ORDER BY id`,
      [caseId],
    );
    return rows;
  }

  async function timeline(caseId: number): Promise<{ type: string; actor: string; data: Record<string, unknown> }[]> {
    const { rows } = await db().query(`SELECT type, actor, data FROM case_events WHERE case_id = $1 ORDER BY id`, [caseId]);
    return rows;
  }

  let w: WorkflowCase;
  let runId: number;
  before(async () => {
    w = await givenCase(ctx, { Open: [{ wait: { seconds: 60 } }], Triage: [{ wait: { seconds: 60 } }] });
    runId = Number((await runs(w.caseId))[0]!.id);
  });

  it('loads the case with its pending run; starting it records the take and run_started', async () => {
    await change(w.caseId, (subject) => assert.ok(subject.takeRun(runId)));
    const [run] = await runs(w.caseId);
    assert.deepEqual([run!.state, run!.attempts, run!.started], ['running', 1, true]);
    assert.deepEqual((await timeline(w.caseId)).map((e) => e.type), ['created', 'run_started']);
    assert.deepEqual((await timeline(w.caseId))[1], { type: 'run_started', actor: 'engine', data: { run_id: runId, status: 'Open', mode: 'live' } });
  });

  it('holds the run at a step under a lease, with no timeline row', async () => {
    await change(w.caseId, (subject) => subject.heldRun(runId)!.hold(2, 60_000));
    const [run] = await runs(w.caseId);
    assert.deepEqual([run!.state, run!.current_step, run!.leased], ['running', 2, true]);
    assert.equal((await timeline(w.caseId)).length, 2);
  });

  it('parks the run with its resume time, on the run and on the timeline', async () => {
    await change(w.caseId, (subject) => subject.heldRun(runId)!.park(2, 5_000, { kind: 'retry', step: 'http_request', attempt: 1, error: 'answered 503' }));
    const [run] = await runs(w.caseId);
    assert.deepEqual([run!.state, run!.current_step, run!.step_attempts, run!.leased], ['waiting', 2, 1, null]);
    const retry = (await timeline(w.caseId)).at(-1)!;
    assert.deepEqual(retry, { type: 'http_request_retry', actor: 'engine', data: { run_id: runId, attempt: 1, error: 'answered 503', retry_at: run!.resume_at!.toISOString() } });
  });

  it('does not take a parked run before its time; resumes it after, counting the attempt, with no timeline row', async () => {
    await change(w.caseId, (subject) => assert.equal(subject.takeRun(runId), null));
    await db().query(`UPDATE workflow_runs SET resume_at = now() - interval '1 second' WHERE id = $1`, [runId]);
    await change(w.caseId, (subject) => {
      const run = subject.takeRun(runId)!;
      run.note('http_request', { status: 200 });
      run.finish('succeeded');
    });
    const [run] = await runs(w.caseId);
    assert.deepEqual([run!.state, run!.attempts, run!.finished, run!.resume_at, run!.error], ['succeeded', 2, true, null, null]);
    assert.deepEqual((await timeline(w.caseId)).slice(-2), [
      { type: 'http_request', actor: 'automation', data: { run_id: runId, status: 200 } },
      { type: 'run_succeeded', actor: 'engine', data: { run_id: runId, status: 'Open' } },
    ]);
  });

  it('supersedes the unfinished runs on a move and inserts the new status run, in one statement per move', async () => {
    const moved = await cases.change(w.organizationId, w.workflowId, w.caseId, (subject) => subject.moveTo('Triage', w.version, { kind: 'api_token', tokenId: 1 }));
    assert.equal(moved!.status, 'Triage');
    await cases.change(w.organizationId, w.workflowId, w.caseId, (subject) => subject.moveTo('Review', w.version, { kind: 'api_token', tokenId: 1 }));
    const [, triage, review] = await runs(w.caseId);
    assert.deepEqual([triage!.status, triage!.state, triage!.finished, triage!.started], ['Triage', 'superseded', true, false]);
    assert.equal(review, undefined, 'Review has no automation');
    assert.deepEqual((await timeline(w.caseId)).slice(-3), [
      { type: 'status_changed', actor: 'api_token:1', data: { from: 'Open', to: 'Triage', outcome: null } },
      { type: 'run_superseded', actor: 'engine', data: { run_id: Number(triage!.id), status: 'Triage' } },
      { type: 'status_changed', actor: 'api_token:1', data: { from: 'Triage', to: 'Review', outcome: null } },
    ]);
  });

  it('finishes a failed run with its error and parks the case in Error', async () => {
    const failing = await givenCase(ctx, { Open: [{ fail: 'x' }] });
    const [pending] = await runs(failing.caseId);
    await change(failing.caseId, (subject) => {
      subject.takeRun(Number(pending!.id))!.finish('failed', 'needs a human');
      subject.park(failing.version, 'needs a human');
    });
    const [run] = await runs(failing.caseId);
    assert.deepEqual([run!.state, run!.error, run!.finished], ['failed', 'needs a human', true]);
    assert.deepEqual((await timeline(failing.caseId)).map((e) => [e.type, e.actor]), [
      ['created', 'api_token:1'], ['run_started', 'engine'], ['run_failed', 'engine'], ['status_changed', 'engine'],
    ]);
    assert.deepEqual((await timeline(failing.caseId)).at(-1)!.data, { from: 'Open', to: 'Error', outcome: null, reason: 'needs a human' });
  });
});

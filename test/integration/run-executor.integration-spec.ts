import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RunExecutor } from '../../src/modules/automation/application/run-executor.service.js';
import { startIntegrationContext, type IntegrationContext } from '../support/integration-context.js';
import { givenCase, runExecutor, type WorkflowCase } from '../support/integration-fixtures.js';
import { closeDb, db } from '../support/test-app.js';

describe('RunExecutor', () => {
  let ctx: IntegrationContext;
  let executor: RunExecutor;
  before(async () => {
    ctx = await startIntegrationContext();
    executor = runExecutor(ctx);
  });
  after(async () => {
    await ctx.close();
    await closeDb();
  });

  /** Executes the case's latest run, as a worker does with its job. */
  async function executeLatestRun(w: WorkflowCase): Promise<void> {
    const { rows } = await db().query<{ id: string }>(`SELECT id FROM workflow_runs WHERE case_id = $1 ORDER BY id DESC LIMIT 1`, [w.caseId]);
    await executor.execute({ runId: Number(rows[0]!.id), caseId: w.caseId, workflowId: w.workflowId, workflowVersion: w.version.version });
  }

  async function caseRow(caseId: number) {
    const { rows } = await db().query(`SELECT status, outcome, attributes FROM cases WHERE id = $1`, [caseId]);
    return rows[0];
  }

  async function runStates(caseId: number) {
    const { rows } = await db().query(`SELECT status, state, chain_depth, error FROM workflow_runs WHERE case_id = $1 ORDER BY id`, [caseId]);
    return rows.map((r) => [r.status, r.state, r.chain_depth, r.error]);
  }

  async function timeline(caseId: number): Promise<string[]> {
    const { rows } = await db().query(`SELECT type, data FROM case_events WHERE case_id = $1 ORDER BY id`, [caseId]);
    return rows.map((e) => (e.type === 'status_changed' ? `${e.data.from}->${e.data.to}` : e.type));
  }

  /** The transactions that wrote the case's row, its runs and its timeline after its creation. */
  async function writingTransactions(caseId: number): Promise<string[]> {
    const { rows } = await db().query<{ xmin: string }>(
      `SELECT xmin::text FROM cases WHERE id = $1
       UNION SELECT xmin::text FROM workflow_runs WHERE case_id = $1
       UNION SELECT xmin::text FROM case_events WHERE case_id = $1 AND type <> 'created'`,
      [caseId],
    );
    return rows.map((r) => r.xmin);
  }

  it('takes a case through a chain of automatic moves and commits it once', async () => {
    const w = await givenCase(ctx, {
      Open: [{ set_attributes: { priority: 2 } }, { set_status: 'Triage' }],
      Triage: [{ set_attributes: { vip: true } }, { close: { outcome: 'Auto-resolved' } }],
    });
    await executeLatestRun(w);
    assert.deepEqual(await caseRow(w.caseId), { status: 'Closed', outcome: 'Auto-resolved', attributes: { customer_email: 'ada@example.com', priority: 2, vip: true } });
    assert.deepEqual(await runStates(w.caseId), [['Open', 'succeeded', 0, null], ['Triage', 'succeeded', 1, null]]);
    assert.deepEqual(await timeline(w.caseId), [
      'created', 'run_started', 'attributes_changed', 'Open->Triage', 'run_succeeded',
      'run_started', 'attributes_changed', 'Triage->Closed', 'run_succeeded',
    ]);
    assert.equal((await writingTransactions(w.caseId)).length, 1, 'one transaction wrote the whole chain');
  });

  it('parks the case in Error with the failing step\'s reason, keeping the changes made before', async () => {
    const w = await givenCase(ctx, { Open: [{ set_attributes: { priority: 3 } }, { fail: 'needs a human: {{ attributes.customer_email }}' }] });
    await executeLatestRun(w);
    assert.deepEqual(await caseRow(w.caseId), { status: 'Error', outcome: null, attributes: { customer_email: 'ada@example.com', priority: 3 } });
    assert.deepEqual(await runStates(w.caseId), [['Open', 'failed', 0, 'needs a human: ada@example.com']]);
    assert.deepEqual(await timeline(w.caseId), ['created', 'run_started', 'attributes_changed', 'run_failed', 'Open->Error']);
    const { rows } = await db().query(`SELECT data FROM case_events WHERE case_id = $1 AND type = 'status_changed'`, [w.caseId]);
    assert.equal(rows[0].data.reason, 'needs a human: ada@example.com');
  });

  it('parks a run at a wait, leaves it until its time, and resumes it after the wait', async () => {
    const w = await givenCase(ctx, { Open: [{ wait: { seconds: 3600 } }, { close: { outcome: 'After waiting' } }] });
    await executeLatestRun(w);
    const { rows: [parked] } = await db().query(`SELECT state, current_step, resume_at > now() + interval '59 minutes' AS later FROM workflow_runs WHERE case_id = $1`, [w.caseId]);
    assert.deepEqual(parked, { state: 'waiting', current_step: 1, later: true });
    assert.equal((await caseRow(w.caseId)).status, 'Open');

    await executeLatestRun(w);
    assert.equal((await caseRow(w.caseId)).status, 'Open', 'a run is not taken before its wait is over');

    await db().query(`UPDATE workflow_runs SET resume_at = now() - interval '1 second' WHERE case_id = $1`, [w.caseId]);
    await executeLatestRun(w);
    assert.deepEqual(await caseRow(w.caseId), { status: 'Closed', outcome: 'After waiting', attributes: { customer_email: 'ada@example.com' } });
    const { rows: [run] } = await db().query(`SELECT state, attempts FROM workflow_runs WHERE case_id = $1`, [w.caseId]);
    assert.deepEqual(run, { state: 'succeeded', attempts: 2 });
    assert.deepEqual(await timeline(w.caseId), ['created', 'run_started', 'run_waiting', 'Open->Closed', 'run_succeeded']);
  });
});

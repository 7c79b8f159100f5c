import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { Transaction } from '../../../shared/database/transaction.js';
import { PreparedStatements } from '../../../shared/database/prepared-statements.js';
import type { CaseMode } from '../../cases/domain/case.js';

export type RunState = 'pending' | 'running' | 'waiting' | 'succeeded' | 'failed' | 'superseded';

/** What a worker needs to execute a run without looking anything up first. */
export interface RunRef {
  runId: number;
  caseId: number;
  workflowId: number;
  workflowVersion: number;
}

export interface DueRun extends RunRef {
  state: RunState;
  attempts: number;
  resumeAt: Date | null;
}

export interface RunRecord {
  id: number;
  caseId: number;
  organizationId: number;
  workflowId: number;
  workflowVersion: number;
  status: string;
  mode: CaseMode;
  chainDepth: number;
  currentStep: number;
  stepAttempts: number;
  /** How many times the run was claimed, this time included. */
  attempts: number;
  createdAt: Date;
}

interface RunRow {
  id: string;
  case_id: string;
  organization_id: string;
  workflow_id: string;
  workflow_version: number;
  status: string;
  mode: CaseMode;
  chain_depth: number;
  current_step: number;
  step_attempts: number;
  attempts: number;
  created_at: Date;
}

const toRecord = (r: RunRow): RunRecord => ({
  id: Number(r.id),
  caseId: Number(r.case_id),
  organizationId: Number(r.organization_id),
  workflowId: Number(r.workflow_id),
  workflowVersion: r.workflow_version,
  status: r.status,
  mode: r.mode,
  chainDepth: r.chain_depth,
  currentStep: r.current_step,
  stepAttempts: r.step_attempts,
  attempts: r.attempts,
  createdAt: r.created_at,
});

/** Runs written since the relay last looked (found through the partial index `workflow_runs_new`). */
const NEW_RUNS = `state = 'pending' AND enqueued_at IS NULL`;

/**
 * Runs whose worker died mid-run: held (`running`) with a lease that ran out, and not handed to
 * the queue since it did (a run a move started was never handed over at all). Found through the
 * partial index `workflow_runs_leased`.
 */
const EXPIRED_LEASES = `state = 'running' AND locked_until < now() AND (enqueued_at IS NULL OR enqueued_at < locked_until)`;

/** Runs that should be on the queue and may not be: lost with their job, held by a dead worker, or overdue after a wait. */
const STALE_RUNS = `
  (state = 'pending' OR (state = 'running' AND locked_until < now()) OR (state = 'waiting' AND resume_at < now() - $2 * interval '1 millisecond'))
  AND enqueued_at < now() - $2 * interval '1 millisecond'`;

/**
 * `workflow_runs` and the run events of the timeline. Statements that return rows are written
 * as `WITH ... SELECT`: TypeORM answers a bare `UPDATE ... RETURNING` as [rows, count].
 */
@Injectable()
export class RunRepository {
  private readonly prepared: PreparedStatements;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.prepared = new PreparedStatements(dataSource);
  }

  /**
   * Takes a run for execution inside `tx`, after the case's row lock: a row lock, no write to
   * the run yet (what the run did is written once, when the stretch ends). Only one worker holds
   * a run at a time; a finished or superseded run, or one another worker holds, gives null. The
   * first claim records `run_started`. The returned record counts this claim in `attempts`.
   */
  async claim(tx: Transaction, runId: number): Promise<RunRecord | null> {
    const [row] = await PreparedStatements.rowsIn<RunRow & { claimable: boolean }>(
      tx,
      `WITH run AS (
         SELECT *, (state = 'pending'
                    OR (state = 'running' AND (locked_until IS NULL OR locked_until < now()))
                    OR (state = 'waiting' AND resume_at <= now())) AS claimable
         FROM workflow_runs WHERE id = $1 FOR UPDATE
       ), started AS (
         INSERT INTO case_events (case_id, type, actor, data)
         SELECT case_id, 'run_started', 'engine', jsonb_build_object('run_id', id, 'status', status, 'mode', mode)
         FROM run WHERE claimable AND attempts = 0
       )
       SELECT * FROM run`,
      [runId],
    );
    if (!row?.claimable) return null;
    return { ...toRecord(row), attempts: row.attempts + 1 };
  }

  /**
   * The run a status move inserted in this transaction, which the same worker executes at
   * once (the move recorded it as started): nothing to read, it is new.
   */
  static started(id: number, movedBy: RunRecord, status: string): RunRecord {
    return { ...movedBy, id, status, chainDepth: movedBy.chainDepth + 1, currentStep: 0, stepAttempts: 0, attempts: 1, createdAt: new Date() };
  }

  /**
   * The run stays with this worker while it calls the outside world at `step` (until the lease
   * runs out). The lease counts from now, not from the start of the transaction (which may have
   * waited for the case's lock): the first renewal comes a third of the lease after the commit.
   */
  async hold(tx: Transaction, run: RunRecord, step: number, leaseMs: number): Promise<void> {
    await PreparedStatements.rowsIn(
      tx,
      `UPDATE workflow_runs SET state = 'running', attempts = $3, started_at = coalesce(started_at, now()), current_step = $2,
              step_attempts = CASE WHEN current_step = $2 THEN step_attempts ELSE 0 END,
              locked_until = clock_timestamp() + $4 * interval '1 millisecond', resume_at = NULL
       WHERE id = $1`,
      [run.id, step, run.attempts, leaseMs],
    );
  }

  /** Under the case's lock: is this run still the one to act (not superseded meanwhile)? */
  async isRunning(tx: Transaction, runId: number): Promise<boolean> {
    const rows = (await PreparedStatements.rowsIn(tx, `SELECT state FROM workflow_runs WHERE id = $1 FOR UPDATE`, [runId])) as { state: RunState }[];
    return rows[0]?.state === 'running';
  }

  /** Keeps the run while a long step (an HTTP call) is under way. */
  async renewLease(runId: number, leaseMs: number): Promise<void> {
    await this.prepared.rows(
      `UPDATE workflow_runs SET locked_until = now() + $2 * interval '1 millisecond' WHERE id = $1 AND state = 'running'`,
      [runId, leaseMs],
    );
  }

  /**
   * Parks the run until `delayMs` from now, at `step` (the next one after a wait, the same one
   * for a retry), and records `event` on the timeline with the time it resumes under `event.at`.
   */
  async park(tx: Transaction, run: RunRecord, step: number, stepAttempts: number, delayMs: number, event: { type: string; at: 'until' | 'retry_at'; data: Record<string, unknown> }): Promise<Date> {
    const [row] = (await PreparedStatements.rowsIn(tx, 
      `WITH parked AS (
         UPDATE workflow_runs
         SET state = 'waiting', current_step = $2, step_attempts = $3, resume_at = clock_timestamp() + $4 * interval '1 millisecond',
             locked_until = NULL, attempts = $8, started_at = coalesce(started_at, now())
         WHERE id = $1 RETURNING case_id, resume_at
       ), event AS (
         INSERT INTO case_events (case_id, type, actor, data)
         SELECT case_id, $5, 'engine', $6::jsonb || jsonb_build_object($7::text, to_char(resume_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) FROM parked
       )
       SELECT resume_at FROM parked`,
      [run.id, step, stepAttempts, delayMs, event.type, JSON.stringify({ run_id: run.id, ...event.data }), event.at, run.attempts],
    )) as { resume_at: Date }[];
    return row!.resume_at;
  }

  /** Ends the run and records it on the timeline (`run_succeeded` or `run_failed` with the error). */
  async finish(tx: Transaction, run: RunRecord, state: 'succeeded' | 'failed', error: string | null): Promise<void> {
    await PreparedStatements.rowsIn(tx, 
      `WITH finished AS (
         UPDATE workflow_runs SET state = $2, error = $3, finished_at = now(), locked_until = NULL, resume_at = NULL,
                                  attempts = $4, started_at = coalesce(started_at, now())
         WHERE id = $1 RETURNING id, case_id, status
       )
       INSERT INTO case_events (case_id, type, actor, data)
       SELECT case_id, 'run_' || $2, 'engine',
              jsonb_build_object('run_id', id, 'status', status) || CASE WHEN $3::text IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('error', $3::text) END
       FROM finished`,
      [run.id, state, error, run.attempts],
    );
  }

  async recordEvent(tx: Transaction, caseId: number, type: string, actor: 'engine' | 'automation', data: Record<string, unknown>): Promise<void> {
    await PreparedStatements.rowsIn(tx, `INSERT INTO case_events (case_id, type, actor, data) VALUES ($1, $2, $3, $4::jsonb)`, [caseId, type, actor, JSON.stringify(data)]);
  }

  /**
   * Marks up to `limit` new runs as enqueued and returns them, oldest first. Several relays may
   * run at once: each takes different rows (SKIP LOCKED).
   */
  takeNew(limit: number): Promise<DueRun[]> {
    return this.take(NEW_RUNS, limit);
  }

  /** The same for runs whose worker's lease ran out (see EXPIRED_LEASES): the relay looks every second. */
  takeExpired(limit: number): Promise<DueRun[]> {
    return this.take(EXPIRED_LEASES, limit);
  }

  /**
   * The same for runs enqueued more than `graceMs` ago that still have not run (their job was
   * lost, their worker died, their resumption is overdue). This scans every unfinished run, so
   * the relay does it seldom; new runs come through `takeNew`.
   */
  takeStale(limit: number, graceMs: number): Promise<DueRun[]> {
    return this.take(STALE_RUNS, limit, graceMs);
  }

  /** `graceMs` is $2 when `condition` uses it (an unused parameter has no type Postgres can infer). */
  private async take(condition: string, limit: number, graceMs?: number): Promise<DueRun[]> {
    const rows = (await this.prepared.rows(
      `WITH taken AS (
         UPDATE workflow_runs SET enqueued_at = now()
         WHERE id IN (SELECT id FROM workflow_runs WHERE ${condition} ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
         RETURNING id, case_id, workflow_id, workflow_version, state, attempts, resume_at
       ) SELECT * FROM taken`,
      graceMs === undefined ? [limit] : [limit, graceMs],
    )) as { id: string; case_id: string; workflow_id: string; workflow_version: number; state: RunState; attempts: number; resume_at: Date | null }[];
    return rows
      .map((r) => ({ runId: Number(r.id), caseId: Number(r.case_id), workflowId: Number(r.workflow_id), workflowVersion: r.workflow_version, state: r.state, attempts: r.attempts, resumeAt: r.resume_at }))
      .sort((a, b) => a.runId - b.runId);
  }

  /** Redis refused the batch: make the runs due again at once rather than after the grace period. */
  async untake(ids: number[]): Promise<void> {
    await this.prepared.rows(`UPDATE workflow_runs SET enqueued_at = NULL WHERE id = ANY($1::bigint[])`, [ids]);
  }
}

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { column } from '../../../shared/database/typed-statement.js';
import { firstRowOf, prepared, statement } from './persistence.js';
import type { RunState } from '../domain/run.js';
import { type DueRun, RunQueue } from '../domain/run-queue.js';

/** Runs written since the relay last looked (found through the partial index `workflow_runs_new`). */
const NEW_RUNS = `state = 'pending' AND enqueued_at IS NULL`;

/**
 * Runs whose worker died mid-run: held (`running`) with a lease that ran out, and not handed to
 * the queue since it did (a run a move started was never handed over at all). Found through the
 * partial index `workflow_runs_leased`.
 */
const EXPIRED_LEASES = `state = 'running' AND locked_until < now() AND (enqueued_at IS NULL OR enqueued_at < locked_until)`;

/**
 * Runs that should be on the queue and may not be: lost with their job, held by a dead worker, or
 * overdue after a wait. The first test is the predicate of the partial index
 * `workflow_runs_unfinished`: without it Postgres walks the primary key from the first run ever
 * stored (the unfinished ones are the newest): a look that grows with every finished run, until
 * under load it can outlast its statement_timeout (docs/benchmarks.md, "Automation under
 * overload").
 */
const STALE_RUNS = `
  state IN ('pending', 'running', 'waiting') AND (state = 'pending' OR (state = 'running' AND locked_until < now()) OR (state = 'waiting' AND resume_at < now() - $2 * interval '1 millisecond'))
  AND enqueued_at < now() - $2 * interval '1 millisecond'`;

const RENEW_LEASE = statement(`UPDATE workflow_runs SET locked_until = now() + $2 * interval '1 millisecond' WHERE id = $1 AND state = 'running'`);

/**
 * Takes the first $1 runs meeting `condition` (which may use $2). A statement that returns rows is
 * written as `WITH ... SELECT`: TypeORM answers a bare `UPDATE ... RETURNING` as [rows, count].
 */
const take = (condition: string) =>
  statement(
    `WITH taken AS (
         UPDATE workflow_runs SET enqueued_at = now()
         WHERE id IN (SELECT id FROM workflow_runs WHERE ${condition} ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
         RETURNING id, case_id, workflow_id, workflow_version, state, attempts, resume_at
       ) SELECT * FROM taken`,
    {
      id: column.int8,
      case_id: column.int8,
      workflow_id: column.int8,
      workflow_version: column.int4,
      state: column.textOf<RunState>(),
      attempts: column.int4,
      resume_at: column.nullable(column.timestamptz),
    },
  );
const TAKE_NEW = take(NEW_RUNS);
const TAKE_EXPIRED = take(EXPIRED_LEASES);
const TAKE_STALE = take(STALE_RUNS);

const UNTAKE = statement(`UPDATE workflow_runs SET enqueued_at = NULL WHERE id = ANY($1::bigint[])`);
const OLDEST_PENDING_AGE = statement(`SELECT extract(epoch FROM now() - created_at)::float AS age FROM workflow_runs WHERE state = 'pending' ORDER BY id LIMIT 1`, {
  age: column.float8,
});

/** `workflow_runs` as the relay and a worker's lease see them. */
@Injectable()
export class PostgresRunQueue extends RunQueue {
  private readonly prepared: ReturnType<typeof prepared>;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    super();
    this.prepared = prepared(dataSource);
  }

  async renewLease(runId: number, leaseMs: number): Promise<void> {
    await this.prepared.rows(RENEW_LEASE, [runId, leaseMs]);
  }

  /** Several relays may run at once: each takes different rows (SKIP LOCKED). */
  takeNew(limit: number): Promise<DueRun[]> {
    return this.take(TAKE_NEW, limit);
  }

  /** The same for runs whose worker's lease ran out (see EXPIRED_LEASES): the relay looks every second. */
  takeExpired(limit: number): Promise<DueRun[]> {
    return this.take(TAKE_EXPIRED, limit);
  }

  /**
   * The same for runs enqueued more than `graceMs` ago that still have not run (their job was
   * lost, their worker died, their resumption is overdue). This scans every unfinished run, so
   * the relay does it seldom; new runs come through `takeNew`.
   */
  takeStale(limit: number, graceMs: number): Promise<DueRun[]> {
    return this.take(TAKE_STALE, limit, graceMs);
  }

  /** `graceMs` is $2 when the statement's condition uses it (an unused parameter has no type Postgres can infer). */
  private async take(taking: typeof TAKE_NEW, limit: number, graceMs?: number): Promise<DueRun[]> {
    const rows = await this.prepared.rows(taking, graceMs === undefined ? [limit] : [limit, graceMs]);
    return rows
      .map((r) => ({ runId: Number(r.id), caseId: Number(r.case_id), workflowId: Number(r.workflow_id), workflowVersion: r.workflow_version, state: r.state, attempts: r.attempts, resumeAt: r.resume_at }))
      .sort((a, b) => a.runId - b.runId);
  }

  async untake(ids: number[]): Promise<void> {
    await this.prepared.rows(UNTAKE, [ids]);
  }

  async oldestPendingAgeSeconds(): Promise<number> {
    return (await firstRowOf(this.dataSource, OLDEST_PENDING_AGE))?.age ?? 0;
  }
}

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { PreparedStatements } from '../../../shared/database/prepared-statements.js';
import type { Transaction } from '../../../shared/database/transaction.js';
import { Case, type CaseDraft, type CaseProps } from '../domain/case.js';
import { type CreateAnswer, type Created, CaseRepository, type CreateResult, type IdempotencyClaim } from '../domain/case.repository.js';
import { lifecycleEventTypes } from '../domain/case-lifecycle.js';
import { CaseMetrics } from './case-metrics.js';
import { changeBatches, changeParams, STORE_CHANGES_SQL, type StoredChangesRow } from './case-changes.sql.js';
import { CASE_COLUMNS, type CaseRow, type RunRow, toProps, toRunProps } from './case.mapper.js';
import { outboxSql } from './case-outbox.sql.js';
import { creationRow } from './case-timeline.js';

/**
 * One statement stores a case, its creation event and its pending run: one round trip on the
 * intake path, atomic without an explicit transaction.
 */
function insertCaseSql(returning: string): string {
  return `
    WITH new_case AS (
      INSERT INTO cases (organization_id, workflow_id, workflow_version, subject, status, outcome, mode, source, attributes)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb)
      RETURNING *
    ), created_event AS (
      INSERT INTO case_events (case_id, type, actor, data)
      SELECT id, $10, $11, $12::jsonb FROM new_case
    ), first_run AS (
      INSERT INTO workflow_runs (case_id, organization_id, workflow_id, workflow_version, status, mode)
      SELECT id, $1, $2, $3, $5, $7 FROM new_case WHERE $13::boolean
    )${outboxSql('new_case', '$14')}
    SELECT ${returning} FROM new_case`;
}
const INSERT_CASE_RETURNING_ROW = insertCaseSql(CASE_COLUMNS);
const INSERT_CASE_RETURNING_ID = insertCaseSql('id');

// An expired claim (older than 24 hours) is taken over; a live one wins and the new case is rolled back.
const CLAIM_KEY_SQL = `
  INSERT INTO idempotency_keys (organization_id, key, request_hash, case_id) VALUES ($1, $2, $3, $4)
  ON CONFLICT (organization_id, key) DO UPDATE
    SET request_hash = EXCLUDED.request_hash, case_id = EXCLUDED.case_id, created_at = now()
    WHERE idempotency_keys.created_at < now() - interval '24 hours'
  RETURNING case_id`;
const FIND_CLAIM_SQL = `
  SELECT case_id, request_hash FROM idempotency_keys
  WHERE organization_id = $1 AND key = $2 AND created_at >= now() - interval '24 hours'`;

const FIND_CASE_SQL = `SELECT ${CASE_COLUMNS} FROM cases WHERE id = $1 AND workflow_id = $2 AND organization_id = $3`;

const LOCK_CASE_SQL = `SELECT ${CASE_COLUMNS} FROM cases WHERE id = $1 FOR UPDATE`;

/**
 * The unfinished runs of a case, read once the case is locked: by a statement of its own, as
 * a statement that waited for the lock still sees the runs as they were before it waited.
 * Whether a worker may take a run is read on the database's clock: pending, held by a worker
 * whose lease ran out, or its pause over.
 */
const UNFINISHED_RUNS_SQL = `
  SELECT id, status, mode, chain_depth, state, current_step, step_attempts, attempts, created_at,
         (state = 'pending' OR (state = 'running' AND (locked_until IS NULL OR locked_until < now()))
          OR (state = 'waiting' AND resume_at <= now())) AS due
  FROM workflow_runs WHERE case_id = $1 AND state IN ('pending', 'running', 'waiting') ORDER BY id FOR UPDATE`;

/** The Case aggregate in Postgres: raw SQL, as named prepared statements, on TypeORM's connections. */
@Injectable()
export class PostgresCaseRepository extends CaseRepository {
  private readonly prepared: PreparedStatements;

  constructor(@InjectDataSource() private readonly dataSource: DataSource, private readonly metrics: CaseMetrics) {
    super();
    this.prepared = new PreparedStatements(dataSource);
  }

  async create<A extends CreateAnswer>(draft: CaseDraft, answer: A, idempotency?: IdempotencyClaim): Promise<CreateResult<A>> {
    const insert = answer === 'case' ? INSERT_CASE_RETURNING_ROW : INSERT_CASE_RETURNING_ID;
    if (!idempotency) {
      const [row] = await this.prepared.rows<CaseRow>(insert, insertParams(draft));
      return { created: createdFrom(row!, answer) };
    }
    return this.dataSource
      .transaction(async (manager) => {
        const tx = manager as unknown as Transaction;
        const [row] = await PreparedStatements.rowsIn<CaseRow>(tx, insert, insertParams(draft));
        const claimed = await PreparedStatements.rowsIn(tx, CLAIM_KEY_SQL, [draft.props.organizationId, idempotency.key, idempotency.requestHash, row!.id]);
        if (claimed.length) return { created: createdFrom(row!, answer) };
        throw new ClaimTaken();
      })
      .catch(async (err: unknown) => {
        if (!(err instanceof ClaimTaken)) throw err;
        const claim = await this.findClaim(draft.props.organizationId, idempotency.key);
        if (!claim) throw new Error('idempotency key vanished while claimed');
        return { claimedBy: claim };
      });
  }

  async find(organizationId: number, workflowId: number, caseId: number): Promise<CaseProps | null> {
    const [row] = await this.prepared.rows<CaseRow>(FIND_CASE_SQL, [caseId, workflowId, organizationId]);
    return row ? toProps(row) : null;
  }

  async findClaim(organizationId: number, key: string): Promise<{ caseId: number; requestHash: Buffer } | null> {
    const [row] = await this.prepared.rows<{ case_id: string; request_hash: Buffer }>(FIND_CLAIM_SQL, [organizationId, key]);
    return row ? { caseId: Number(row.case_id), requestHash: row.request_hash } : null;
  }

  async change(organizationId: number, workflowId: number, caseId: number, change: (subject: Case) => void): Promise<CaseProps | null> {
    return this.dataSource.transaction(async (manager) => {
      const tx = manager as unknown as Transaction;
      const [row] = await PreparedStatements.rowsIn<CaseRow>(tx, `${FIND_CASE_SQL} FOR UPDATE`, [caseId, workflowId, organizationId]);
      if (!row) return null;
      const subject = await withRuns(tx, row);
      change(subject);
      return this.save(tx, subject);
    });
  }

  async load(tx: Transaction, caseId: number): Promise<Case | null> {
    const [row] = await PreparedStatements.rowsIn<CaseRow>(tx, LOCK_CASE_SQL, [caseId]);
    return row ? withRuns(tx, row) : null;
  }

  /** One statement per status change, one more for what happened after the last (see STORE_CHANGES_SQL). */
  async save(tx: Transaction, subject: Case): Promise<CaseProps> {
    let stored: CaseProps = subject.snapshot();
    for (const events of changeBatches(subject.pullEvents())) {
      const [row] = await PreparedStatements.rowsIn<StoredChangesRow>(tx, STORE_CHANGES_SQL, changeParams(subject, events));
      for (const event of events) {
        if (event.type === 'status_changed') subject.runStartedBy(event)?.identify(Number(row!.started_run_id));
        if (event.type === 'run_parked') event.run.resumesAt(row!.resume_at!);
      }
      this.metrics.runsSuperseded(subject.mode, events.filter((e) => e.type === 'run_superseded').length);
      stored = toProps(row!);
    }
    return stored;
  }
}

class ClaimTaken extends Error {}

function createdFrom<A extends CreateAnswer>(row: CaseRow, answer: A): Created<A> {
  return (answer === 'case' ? { id: Number(row.id), case: toProps(row) } : { id: Number(row.id) }) as Created<A>;
}

function insertParams(draft: CaseDraft): unknown[] {
  const p = draft.props;
  const [created] = draft.events;
  if (created?.type !== 'created') throw new Error('a new case starts with its creation event');
  const { type, actor, data } = creationRow(created);
  return [p.organizationId, p.workflowId, p.workflowVersion, p.subject, p.status, p.outcome, p.mode, p.source, p.attributes, type, actor, data, created.startsRun, lifecycleEventTypes(created)];
}

/** The locked case with its unfinished runs. */
async function withRuns(tx: Transaction, row: CaseRow): Promise<Case> {
  const props = toProps(row);
  const runs = await PreparedStatements.rowsIn<RunRow>(tx, UNFINISHED_RUNS_SQL, [props.id]);
  return Case.restore(props, runs.map((run) => toRunProps(props.id, run)));
}

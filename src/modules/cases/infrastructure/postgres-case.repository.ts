import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { PreparedStatements } from '../../../shared/database/prepared-statements.js';
import { StatementBatches } from '../../../shared/database/statement-batches.js';
import { TransactionRunner, type Transaction } from '../../../shared/database/transaction.js';
import { Case, type CaseDraft, type CaseProps } from '../domain/case.js';
import { type CreateAnswer, type Created, CaseRepository, type CreateResult, type DeliveryKey, type IdempotencyClaim, type ReplyUsage } from '../domain/case.repository.js';
import { lifecycleEventTypes } from '../domain/case-lifecycle.js';
import { CaseMetrics } from './case-metrics.js';
import { changeBatches, changeParams, STORE_CHANGES_SQL, type StoredChangesRow } from './case-changes.sql.js';
import { CASE_COLUMNS, type CaseRow, type RunRow, toProps, toRunProps } from './case.mapper.js';
import { outboxSql } from './case-outbox.sql.js';
import { casePayloadSql } from './case-payload.sql.js';
import { caseEventListenersSql } from '../../case-events/case-event-outbox.sql.js';
import { createdReportSql } from './case-report-changes.sql.js';
import { casesByMessageId, replyUsage, storeReceivedMessage } from './case-messages.sql.js';
import { creationRow } from './case-timeline.js';

/**
 * One statement stores a case, its creation event, its pending run and the row reports count
 * it by: one round trip on the intake path, atomic without an explicit transaction.
 */
function insertCaseSql(returning: string): string {
  return `
    WITH new_case AS (
      INSERT INTO cases (organization_id, workflow_id, workflow_version, subject, status, outcome, mode, source, attributes)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb)
      RETURNING *
    )${caseHoldingsSql}
    SELECT ${returning} FROM new_case`;
}

/** What goes with a new case (`new_case`, which may be empty): its creation event, its pending run, its outbox and listeners' events. */
const caseHoldingsSql = `, created_event AS (
      INSERT INTO case_events (case_id, type, actor, data)
      SELECT id, $10, $11, $12::jsonb FROM new_case
    ), first_run AS (
      INSERT INTO workflow_runs (case_id, organization_id, workflow_id, workflow_version, status, mode)
      SELECT id, $1, $2, $3, $5, $7 FROM new_case WHERE $13::boolean
    )${createdReportSql('new_case')}${outboxSql('new_case', '$14')}${caseEventListenersSql('new_case', '$14', 'NULL', casePayloadSql)}`;

/**
 * The same statement for a webhook delivery with a de-duplication key ($15, its hash; $16, the
 * window in seconds). The case's id is drawn first and the key is claimed for it; the case is
 * stored only when the claim took, so a duplicate stores, starts and emits nothing. A key still
 * inside the window keeps its case; an expired one is taken over. Concurrent deliveries of one
 * key queue on its row (the primary key): each sees the row as the one before it left it, so
 * one claims and the others read its case, and at expiry exactly one takes the key over.
 * Every row answered carries `kept_case_id`; a duplicate's case columns are null. The parameters
 * carry their types, as the first statement to use them here reads them from a SELECT list.
 */
function insertDeduplicatedCaseSql(returning: string): string {
  const live = `k.created_at > now() - $16::int * interval '1 second'`;
  return `
    WITH candidate AS (
      SELECT nextval('cases_id_seq') AS id
    ), claim AS (
      INSERT INTO webhook_dedup_keys AS k (workflow_id, key_hash, case_id)
      SELECT $2::bigint, $15::bytea, id FROM candidate
      ON CONFLICT (workflow_id, key_hash) DO UPDATE
        SET case_id = CASE WHEN ${live} THEN k.case_id ELSE EXCLUDED.case_id END,
            created_at = CASE WHEN ${live} THEN k.created_at ELSE now() END
      RETURNING k.case_id AS kept_case_id
    ), new_case AS (
      INSERT INTO cases (id, organization_id, workflow_id, workflow_version, subject, status, outcome, mode, source, attributes)
      OVERRIDING SYSTEM VALUE
      SELECT claim.kept_case_id, $1::bigint, $2::bigint, $3::int, $4::text, $5::text, $6::text, $7::text, $8::text, $9::jsonb
      FROM claim JOIN candidate ON candidate.id = claim.kept_case_id
      RETURNING *
    )${caseHoldingsSql}
    SELECT ${returning}, kept_case_id FROM claim LEFT JOIN new_case ON true`;
}

const INSERT_CASE = { case: insertCaseSql(CASE_COLUMNS), id: insertCaseSql('id') };
const INSERT_DEDUPLICATED_CASE = { case: insertDeduplicatedCaseSql(CASE_COLUMNS), id: insertDeduplicatedCaseSql('id') };

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

/** Locks in id order: the sort runs below the lock. */
const LOCK_CASES_SQL = `SELECT ${CASE_COLUMNS} FROM cases WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE`;

/**
 * The unfinished runs of cases, read once the cases are locked: by a statement of its own, as
 * a statement that waited for a lock still sees the runs as they were before it waited.
 * Whether a worker may take a run is read on the database's clock: pending, held by a worker
 * whose lease ran out, or its pause over. Locked in id order, as the relay's untake locks runs
 * (without their cases).
 */
const UNFINISHED_RUNS_SQL = `
  SELECT case_id, id, status, mode, chain_depth, state, current_step, step_attempts, attempts, created_at,
         (state = 'pending' OR (state = 'running' AND (locked_until IS NULL OR locked_until < now()))
          OR (state = 'waiting' AND resume_at <= now())) AS due
  FROM workflow_runs WHERE case_id = ANY($1::bigint[]) AND state IN ('pending', 'running', 'waiting') ORDER BY id FOR UPDATE`;

/** The Case aggregate in Postgres: raw SQL, as named prepared statements, on TypeORM's connections. */
@Injectable()
export class PostgresCaseRepository extends CaseRepository {
  private readonly prepared: PreparedStatements;
  /** New cases without a delivery key (see `create`). */
  private readonly intakes: StatementBatches;

  constructor(@InjectDataSource() dataSource: DataSource, private readonly metrics: CaseMetrics, private readonly transactions: TransactionRunner) {
    super();
    this.prepared = new PreparedStatements(dataSource);
    this.intakes = new StatementBatches(this.prepared, transactions);
  }

  /**
   * A plain new case shares a transaction with the others arriving at the same moment: its
   * statement takes no lock another intake could wait for. One with a delivery key goes alone,
   * as two batches claiming the same keys in different orders would deadlock.
   */
  async create<A extends CreateAnswer>(draft: CaseDraft, answer: A, idempotency?: IdempotencyClaim, delivery?: DeliveryKey): Promise<CreateResult<A>> {
    const insert = insertCaseStatement(draft, answer, delivery);
    if (!idempotency && !draft.message) {
      const [row] = await (delivery ? this.prepared : this.intakes).rows<InsertedRow>(insert.text, insert.values);
      return insertedFrom(row!, answer);
    }
    return this.transactions
      .run(async (tx) => {
        const [row] = await PreparedStatements.rowsIn<InsertedRow>(tx, insert.text, insert.values);
        if (row!.id === null) return insertedFrom(row!, answer);
        const stored = row as CaseRow;
        if (draft.message) await storeReceivedMessage(tx, Number(stored.id), draft.props.workflowId, draft.message);
        if (!idempotency) return { created: createdFrom(stored, answer) };
        const claimed = await PreparedStatements.rowsIn(tx, CLAIM_KEY_SQL, [draft.props.organizationId, idempotency.key, idempotency.requestHash, stored.id]);
        if (claimed.length) return { created: createdFrom(stored, answer) };
        throw new ClaimTaken();
      })
      .catch(async (err: unknown) => {
        if (!(err instanceof ClaimTaken)) throw err;
        const claim = await this.findClaim(draft.props.organizationId, idempotency!.key);
        if (!claim) throw new Error('idempotency key vanished while claimed');
        return { claimedBy: claim };
      });
  }

  async find(organizationId: number, workflowId: number, caseId: number): Promise<CaseProps | null> {
    const [row] = await this.prepared.rows<CaseRow>(FIND_CASE_SQL, [caseId, workflowId, organizationId]);
    return row ? toProps(row) : null;
  }

  casesByMessageId(workflowId: number, messageIds: readonly string[]): Promise<Map<string, number>> {
    return casesByMessageId(this.prepared, workflowId, messageIds);
  }

  replyUsage(caseId: number): Promise<ReplyUsage> {
    return replyUsage(this.prepared, caseId);
  }

  async findClaim(organizationId: number, key: string): Promise<{ caseId: number; requestHash: Buffer } | null> {
    const [row] = await this.prepared.rows<{ case_id: string; request_hash: Buffer }>(FIND_CLAIM_SQL, [organizationId, key]);
    return row ? { caseId: Number(row.case_id), requestHash: row.request_hash } : null;
  }

  async change(organizationId: number, workflowId: number, caseId: number, change: (subject: Case) => void): Promise<CaseProps | null> {
    return this.transactions.run(async (tx) => {
      const [subject] = await lockedWithRuns(tx, `${FIND_CASE_SQL} FOR UPDATE`, [caseId, workflowId, organizationId], [caseId]);
      if (!subject) return null;
      change(subject);
      return this.save(tx, subject);
    });
  }

  async load(tx: Transaction, caseIds: readonly number[]): Promise<Map<number, Case>> {
    const subjects = await lockedWithRuns(tx, LOCK_CASES_SQL, [caseIds], caseIds);
    return new Map(subjects.map((subject) => [subject.id, subject]));
  }

  /** One statement per status change, one more for what happened after the last (see STORE_CHANGES_SQL). */
  async save(tx: Transaction, subject: Case): Promise<CaseProps> {
    let stored: CaseProps = subject.snapshot();
    for (const events of changeBatches(subject.pullEvents())) {
      const [row] = await PreparedStatements.rowsIn<StoredChangesRow>(tx, STORE_CHANGES_SQL, changeParams(subject, events));
      for (const event of events) {
        if (event.type === 'status_changed') subject.runStartedBy(event)?.identify(Number(row!.started_run_id));
        if (event.type === 'run_parked') event.run.resumesAt(row!.resume_at!);
        if (event.type === 'email_received') await storeReceivedMessage(tx, subject.id, subject.workflowId, event.message);
      }
      this.metrics.runsSuperseded(subject.mode, events.filter((e) => e.type === 'run_superseded').length);
      stored = toProps(row!);
    }
    return stored;
  }
}

class ClaimTaken extends Error {}

/** A row of an insert statement: the new case (or its id), or, for a duplicate delivery, nulls and the case its key kept. */
type InsertedRow = (CaseRow & { kept_case_id?: string }) | { id: null; kept_case_id: string };

function insertedFrom<A extends CreateAnswer>(row: InsertedRow, answer: A): CreateResult<A> {
  return row.id === null ? { duplicateOf: Number(row.kept_case_id) } : { created: createdFrom(row, answer) };
}

function createdFrom<A extends CreateAnswer>(row: CaseRow, answer: A): Created<A> {
  return (answer === 'case' ? { id: Number(row.id), case: toProps(row) } : { id: Number(row.id) }) as Created<A>;
}

/**
 * The intake statement and its parameters for a new case (with a delivery key, the
 * de-duplicating one): what `create` sends, and what the benchmark's database-limit reference
 * (bench/pgbench-reference.ts) runs with pgbench.
 */
export function insertCaseStatement(draft: CaseDraft, answer: CreateAnswer, delivery?: DeliveryKey): { text: string; values: unknown[] } {
  if (!delivery) return { text: INSERT_CASE[answer], values: insertParams(draft) };
  return { text: INSERT_DEDUPLICATED_CASE[answer], values: [...insertParams(draft), delivery.hash, delivery.windowSeconds] };
}

function insertParams(draft: CaseDraft): unknown[] {
  const p = draft.props;
  const [created] = draft.events;
  if (created?.type !== 'created') throw new Error('a new case starts with its creation event');
  const { type, actor, data } = creationRow(created);
  return [p.organizationId, p.workflowId, p.workflowVersion, p.subject, p.status, p.outcome, p.mode, p.source, p.attributes, type, actor, data, created.startsRun, lifecycleEventTypes(created)];
}

/**
 * The cases `lockSql` locks with their unfinished runs (`caseIds`: those it may lock). Both
 * statements go out together on the pipelined connection: Postgres runs the runs' read once the
 * locks are held, so it still sees the runs as they are after any wait.
 */
async function lockedWithRuns(tx: Transaction, lockSql: string, lockParams: unknown[], caseIds: readonly number[]): Promise<Case[]> {
  const [rows, runs] = await Promise.all([
    PreparedStatements.rowsIn<CaseRow>(tx, lockSql, lockParams),
    PreparedStatements.rowsIn<RunRow & { case_id: string }>(tx, UNFINISHED_RUNS_SQL, [caseIds]),
  ]);
  const runsByCase = new Map<number, RunRow[]>();
  for (const run of runs) {
    const caseId = Number(run.case_id);
    const own = runsByCase.get(caseId);
    if (own) own.push(run);
    else runsByCase.set(caseId, [run]);
  }
  return rows.map((row) => {
    const props = toProps(row);
    return Case.restore(props, (runsByCase.get(props.id) ?? []).map((run) => toRunProps(props.id, run)));
  });
}

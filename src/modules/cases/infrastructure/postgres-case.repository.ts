import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { StatementBatches } from '../../../shared/database/statement-batches.js';
import { TransactionRunner, type Transaction } from '../../../shared/database/transaction.js';
import { column, type RowOf } from '../../../shared/database/typed-statement.js';
import { type CasesStatement, prepared, rowsIn, statement } from './persistence.js';
import type { OnSlaKind } from '../../workflows/domain/on-sla-steps.js';
import { Case, type CaseDraft, type CaseProps } from '../domain/case.js';
import { type CreateAnswer, type Created, CaseRepository, type CreateResult, type DeliveryKey, type IdempotencyClaim, type ReplyUsage } from '../domain/case.repository.js';
import { CaseStatementParts } from '../domain/case-statement-parts.js';
import type { RunState } from '../domain/run.js';
import { CaseMetrics } from './case-metrics.js';
import { changeBatches, changeParams } from './case-changes.sql.js';
import { type RunRow, toProps, toRunProps, WORKED_CASE_COLUMNS } from './case.mapper.js';
import { casesByMessageId, replyUsage, storeReceivedMessage } from './case-messages.sql.js';
import { WORKED_CASE_ROW } from './case-row.columns.js';
import { CaseStatements, type InsertedRow, type NewCaseRow } from './case-statements.js';

// An expired claim (older than 24 hours) is taken over; a live one wins and the new case is rolled back.
const CLAIM_KEY = statement(
  `
  INSERT INTO idempotency_keys (organization_id, key, request_hash, case_id) VALUES ($1, $2, $3, $4)
  ON CONFLICT (organization_id, key) DO UPDATE
    SET request_hash = EXCLUDED.request_hash, case_id = EXCLUDED.case_id, created_at = now()
    WHERE idempotency_keys.created_at < now() - interval '24 hours'
  RETURNING case_id`,
  { case_id: column.int8 },
);
const FIND_CLAIM = statement(
  `
  SELECT case_id, request_hash FROM idempotency_keys
  WHERE organization_id = $1 AND key = $2 AND created_at >= now() - interval '24 hours'`,
  { case_id: column.int8, request_hash: column.bytea },
);

const FIND_CASE_SQL = `SELECT ${WORKED_CASE_COLUMNS} FROM cases WHERE id = $1 AND workflow_id = $2 AND organization_id = $3`;
const FIND_CASE = statement(FIND_CASE_SQL, WORKED_CASE_ROW);
const LOCK_CASE = statement(`${FIND_CASE_SQL} FOR UPDATE`, WORKED_CASE_ROW);

/**
 * The engine's settings for its transaction (`SET LOCAL`, as a statement that can be prepared):
 * no statement_timeout (see `load`), and plans that use the keys' indexes. Every statement of
 * the engine's unit of work reads or writes cases and runs by key, and a named statement keeps
 * the generic plan it made on its sixth execution on a connection, from the sizes the tables had
 * then. On a new database or a new month's partition that nothing analyzed since it was small
 * (with autovacuum off, or before it came), a sequential scan was the cheaper plan, and the connection
 * kept it while the table grew: in the bench's automation part the runs' update scanned up to
 * 19,000 runs of the partition for every case it stored (docs/benchmarks.md). A statement with
 * no index to use still scans.
 */
const ENGINE_SETTINGS = statement(`SELECT set_config('statement_timeout', '0', true) AS statement_timeout, set_config('enable_seqscan', 'off', true) AS enable_seqscan`, {
  statement_timeout: column.text,
  enable_seqscan: column.text,
});

/** Locks in id order: the sort runs below the lock. */
const LOCK_CASES = statement(`SELECT ${WORKED_CASE_COLUMNS} FROM cases WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE`, WORKED_CASE_ROW);
const ORGANIZATION_CASE_IDS = statement(`SELECT id FROM cases WHERE id = ANY($1::bigint[]) AND organization_id = $2`, { id: column.int8 });

/**
 * The unfinished runs of cases, read once the cases are locked: by a statement of its own, as
 * a statement that waited for a lock still sees the runs as they were before it waited.
 * Whether a worker may take a run is read on the database's clock: pending, held by a worker
 * whose lease ran out, or its pause over. Locked in id order, as the relay's untake locks runs
 * (without their cases).
 */
const UNFINISHED_RUNS = statement(
  `
  SELECT case_id, id, status, on_sla, mode, chain_depth, state, current_step, step_attempts, attempts, created_at,
         jsonb_array_length(steps) AS traced_steps, coalesce(steps -> -1 ->> 'outcome' = 'retry', false) AS retry_traced,
         (state = 'pending' OR (state = 'running' AND (locked_until IS NULL OR locked_until < now()))
          OR (state = 'waiting' AND resume_at <= now())) AS due
  FROM workflow_runs WHERE case_id = ANY($1::bigint[]) AND state IN ('pending', 'running', 'waiting') ORDER BY id FOR UPDATE`,
  {
    case_id: column.int8,
    id: column.int8,
    status: column.text,
    on_sla: column.nullable(column.textOf<OnSlaKind>()),
    mode: column.textOf<CaseProps['mode']>(),
    chain_depth: column.int4,
    state: column.textOf<RunState>(),
    current_step: column.int4,
    step_attempts: column.int4,
    attempts: column.int4,
    created_at: column.timestamptz,
    traced_steps: column.int4,
    retry_traced: column.bool,
    due: column.bool,
  },
);

/** The Case aggregate in Postgres: raw SQL, as named prepared statements, on TypeORM's connections. */
@Injectable()
export class PostgresCaseRepository extends CaseRepository {
  private readonly prepared: ReturnType<typeof prepared>;
  /** New cases without a delivery key (see `create`). */
  private readonly intakes: StatementBatches;
  private composed?: CaseStatements;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly metrics: CaseMetrics,
    private readonly transactions: TransactionRunner,
    private readonly parts: CaseStatementParts,
  ) {
    super();
    this.prepared = prepared(dataSource);
    this.intakes = new StatementBatches(this.prepared, transactions);
  }

  /** Built at the first statement: the other modules register their parts as the application starts. */
  private get statements(): CaseStatements {
    return (this.composed ??= new CaseStatements(this.parts.all()));
  }

  /**
   * A plain new case shares a transaction with the others arriving at the same moment: its
   * statement takes no lock another intake could wait for. One with a delivery key goes alone,
   * as two batches claiming the same keys in different orders would deadlock.
   */
  async create<A extends CreateAnswer>(draft: CaseDraft, answer: A, idempotency?: IdempotencyClaim, delivery?: DeliveryKey): Promise<CreateResult<A>> {
    const insert = this.statements.insert(draft, answer, delivery);
    if (!idempotency && !draft.message) {
      const [row] = await (delivery ? this.prepared : this.intakes).rows(insert.statement, insert.values);
      return insertedFrom<A>(row!);
    }
    return this.transactions
      .run(async (tx) => {
        const stored = (await rowsIn(tx, insert.statement, insert.values))[0]!;
        if (stored.id === null) return insertedFrom<A>(stored);
        if (draft.message) await storeReceivedMessage(tx, Number(stored.id), draft.props.workflowId, draft.message);
        if (!idempotency) return { created: createdFrom<A>(stored) };
        const claimed = await rowsIn(tx, CLAIM_KEY, [draft.props.organizationId, idempotency.key, idempotency.requestHash, stored.id]);
        if (claimed.length) return { created: createdFrom<A>(stored) };
        throw new ClaimTaken();
      })
      .catch(async (err: unknown) => {
        if (!(err instanceof ClaimTaken)) throw err;
        const claim = await this.findClaim(draft.props.organizationId, idempotency!.key);
        if (!claim) throw new Error('idempotency key vanished while claimed');
        return { claimedBy: claim };
      });
  }

  /** New cases waiting for Postgres in the intake batches (IntakePressure samples it): those `create` batches, not the others. */
  intakesPending(): number {
    return this.intakes.pending;
  }

  async find(organizationId: number, workflowId: number, caseId: number): Promise<CaseProps | null> {
    const [row] = await this.prepared.rows(FIND_CASE, [caseId, workflowId, organizationId]);
    return row ? toProps(row) : null;
  }

  casesByMessageId(workflowId: number, messageIds: readonly string[]): Promise<Map<string, number>> {
    return casesByMessageId(this.prepared, workflowId, messageIds);
  }

  replyUsage(caseId: number): Promise<ReplyUsage> {
    return replyUsage(this.prepared, caseId);
  }

  async findClaim(organizationId: number, key: string): Promise<{ caseId: number; requestHash: Buffer } | null> {
    const [row] = await this.prepared.rows(FIND_CLAIM, [organizationId, key]);
    return row ? { caseId: Number(row.case_id), requestHash: row.request_hash } : null;
  }

  async change(organizationId: number, workflowId: number, caseId: number, change: (subject: Case) => void): Promise<CaseProps | null> {
    return this.transactions.run(async (tx) => {
      const [subject] = await lockedWithRuns(tx, LOCK_CASE, [caseId, workflowId, organizationId], [caseId]);
      if (!subject) return null;
      change(subject);
      return this.save(tx, subject);
    });
  }

  /**
   * The engine's unit of work runs past the pool's statement_timeout (sent first, on the same
   * round trip as the locks): its statements are bounded by its batch, and one that a busy
   * machine slows down must finish, or the batch is cancelled, its runs' jobs fail and are
   * retried, and overload costs work done twice and runs handed to the relay's look for lost
   * work instead of only delaying them (docs/benchmarks.md, "Automation under overload").
   */
  async load(tx: Transaction, caseIds: readonly number[]): Promise<Map<number, Case>> {
    const [, subjects] = await Promise.all([rowsIn(tx, ENGINE_SETTINGS, []), lockedWithRuns(tx, LOCK_CASES, [caseIds], caseIds)]);
    return new Map(subjects.map((subject) => [subject.id, subject]));
  }

  async lock(tx: Transaction, organizationId: number, caseIds: readonly number[]): Promise<Map<number, Case>> {
    // Another organization's case is left alone: not even its runs are locked, however briefly.
    const found = (await rowsIn(tx, ORGANIZATION_CASE_IDS, [caseIds, organizationId])).map((row) => Number(row.id));
    const subjects = found.length ? await lockedWithRuns(tx, LOCK_CASES, [found], found) : [];
    return new Map(subjects.map((subject) => [subject.id, subject]));
  }

  /** One statement per status change, one more for what happened after the last (see storeChangesSql). */
  async save(tx: Transaction, subject: Case): Promise<CaseProps> {
    let stored: CaseProps = subject.snapshot();
    for (const events of changeBatches(subject.pullEvents())) {
      const [row] = await rowsIn(tx, this.statements.storeChanges, changeParams(subject, events));
      for (const event of events) {
        if (event.type === 'status_changed') subject.runStartedBy(event)?.identify(Number(row!.started_run_id));
        if (event.type === 'run_parked') event.run.resumesAt(row!.resume_at!);
        if (event.type === 'email_received') await storeReceivedMessage(tx, subject.id, subject.workflowId, event.message);
        if (event.type === 'comment_added' && event.comment.messageId) await storeReceivedMessage(tx, subject.id, subject.workflowId, { attachments: [], messageId: event.comment.messageId });
      }
      this.metrics.runsSuperseded(subject.mode, events.filter((e) => e.type === 'run_superseded').length);
      stored = toProps(row!);
    }
    return stored;
  }

  async startSlaRuns(tx: Transaction, subject: Case, kinds: readonly OnSlaKind[]): Promise<void> {
    if (kinds.length) await rowsIn(tx, START_SLA_RUNS, [subject.id, kinds]);
  }
}

const START_SLA_RUNS = statement(`
  INSERT INTO workflow_runs (case_id, organization_id, workflow_id, workflow_version, status, mode, on_sla)
  SELECT id, organization_id, workflow_id, workflow_version, status, mode, kind FROM cases, unnest($2::text[]) AS kind WHERE id = $1`);

class ClaimTaken extends Error {}

function insertedFrom<A extends CreateAnswer>(row: InsertedRow): CreateResult<A> {
  return row.id === null ? { duplicateOf: Number(row.kept_case_id) } : { created: createdFrom<A>(row) };
}

/** The statement answered what `A` asks for (CaseStatements.insert): the case's columns, or its id alone. */
function createdFrom<A extends CreateAnswer>(row: NewCaseRow): Created<A> {
  return ('subject' in row ? { id: Number(row.id), case: toProps(row) } : { id: Number(row.id) }) as Created<A>;
}

/**
 * The cases `lock` locks with their unfinished runs (`caseIds`: those it may lock). Both
 * statements go out together on the pipelined connection: Postgres runs the runs' read once the
 * locks are held, so it still sees the runs as they are after any wait.
 */
async function lockedWithRuns(tx: Transaction, lock: CasesStatement<RowOf<typeof WORKED_CASE_ROW>>, lockParams: unknown[], caseIds: readonly number[]): Promise<Case[]> {
  const [rows, runs] = await Promise.all([rowsIn(tx, lock, lockParams), rowsIn(tx, UNFINISHED_RUNS, [caseIds])]);
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

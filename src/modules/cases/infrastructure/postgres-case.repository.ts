import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { PreparedStatements } from '../../../shared/database/prepared-statements.js';
import type { Transaction } from '../../../shared/database/transaction.js';
import { Case, type CaseDraft, type CaseEvent, type CaseProps } from '../domain/case.js';
import { type CreateAnswer, type Created, CaseRepository, type CreateResult, type IdempotencyClaim, type MovingRun } from '../domain/case.repository.js';
import { lifecycleEventTypes } from '../domain/case-lifecycle.js';
import { CaseMetrics } from './case-metrics.js';
import { CASE_COLUMNS, type CaseRow, eventColumns, toProps } from './case.mapper.js';
import { outboxSql } from './case-outbox.sql.js';

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

/**
 * A status change, in one statement: the attribute merge made just before it ($14, when there
 * is one), the end of the run that made it ($11, when a run made it), the other unfinished runs
 * superseded, and the new status's run inserted; when the moving run's worker executes that
 * run at once ($12), it is recorded as started. The timeline gets, in this order: the merge,
 * the run that ended, the runs superseded, the change, the run started.
 */
const CHANGE_STATUS_SQL = `
  WITH changed AS (
    UPDATE cases SET status = $2, outcome = $3, updated_at = now(),
                     attributes = CASE WHEN $14::jsonb IS NULL THEN attributes ELSE attributes || $14::jsonb END
    WHERE id = $1 RETURNING *
  ), ended AS (
    UPDATE workflow_runs SET state = 'succeeded', finished_at = now(), locked_until = NULL, resume_at = NULL,
                             attempts = $13, started_at = coalesce(started_at, now())
    WHERE id = $11 RETURNING id, status
  ), superseded AS (
    UPDATE workflow_runs SET state = 'superseded', finished_at = now(), locked_until = NULL
    WHERE case_id = $1 AND state IN ('pending', 'running', 'waiting') AND id IS DISTINCT FROM $11 RETURNING id, status
  ), next_run AS (
    INSERT INTO workflow_runs (case_id, organization_id, workflow_id, workflow_version, status, mode, chain_depth)
    SELECT id, organization_id, workflow_id, workflow_version, $2, $7, $9 FROM changed WHERE $8::boolean
    RETURNING id
  ), events AS (
    INSERT INTO case_events (case_id, type, actor, data)
    SELECT $1, type, actor, data FROM (
      SELECT -1 AS n, 0 AS run_id, $15::text AS type, $16::text AS actor, $17::jsonb AS data WHERE $14::jsonb IS NOT NULL
      UNION ALL
      SELECT 0, id, 'run_succeeded', 'engine', jsonb_build_object('run_id', id, 'status', status) FROM ended
      UNION ALL
      SELECT 1, id, 'run_superseded', 'engine', jsonb_build_object('run_id', id, 'status', status) FROM superseded
      UNION ALL
      SELECT 2, 0, $4, $5, $6::jsonb
      UNION ALL
      SELECT 3, id, 'run_started', 'engine', jsonb_build_object('run_id', id, 'status', $2::text, 'mode', $7::text) FROM next_run WHERE $12::boolean
    ) ordered ORDER BY n, run_id
  )${outboxSql('changed', '$10')}
  SELECT ${CASE_COLUMNS}, (SELECT count(*) FROM superseded)::int AS superseded_runs, (SELECT id FROM next_run) AS started_run_id
  FROM changed`;

const MERGE_ATTRIBUTES_SQL = `
  WITH changed AS (
    UPDATE cases SET attributes = attributes || $2::jsonb, updated_at = now() WHERE id = $1 RETURNING ${CASE_COLUMNS}
  ), event AS (
    INSERT INTO case_events (case_id, type, actor, data) VALUES ($1, $3, $4, $5::jsonb)
  )
  SELECT * FROM changed`;

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
      const subject = Case.restore(toProps(row));
      change(subject);
      return (await this.storeEvents(tx, subject, 0)).case;
    });
  }

  async lock(tx: Transaction, caseId: number): Promise<Case | null> {
    const [row] = await PreparedStatements.rowsIn<CaseRow>(tx, LOCK_CASE_SQL, [caseId]);
    return row ? Case.restore(toProps(row)) : null;
  }

  store(tx: Transaction, subject: Case, chainDepth: number, movedBy?: MovingRun): Promise<{ case: CaseProps; startedRunIds: number[] }> {
    return this.storeEvents(tx, subject, chainDepth, movedBy);
  }

  /** Stores the pending events in order; returns the row as it ends up and the runs started. */
  private async storeEvents(tx: Transaction, subject: Case, chainDepth: number, movedBy?: MovingRun): Promise<{ case: CaseProps; startedRunIds: number[] }> {
    let props: CaseProps = subject.snapshot();
    const startedRunIds: number[] = [];
    const events = subject.pullEvents();
    for (let i = 0; i < events.length; i++) {
      const event = events[i]!;
      const next = events[i + 1];
      // An attribute merge right before a status change is stored by the change's statement: one row version, one round trip.
      const merged = event.type === 'attributes_changed' && next?.type === 'status_changed';
      if (merged) i++;
      const statement = merged ? changeStatus(subject, next, chainDepth, movedBy, event) : statementFor(subject, event, chainDepth, movedBy);
      const [row] = (await PreparedStatements.rowsIn(tx, ...statement)) as [CaseRow & { superseded_runs?: number; started_run_id?: string | null }];
      this.metrics.runsSuperseded(subject.mode, row.superseded_runs ?? 0);
      if (row.started_run_id) startedRunIds.push(Number(row.started_run_id));
      props = toProps(row);
    }
    return { case: props, startedRunIds };
  }
}

class ClaimTaken extends Error {}

type StatusChanged = Extract<CaseEvent, { type: 'status_changed' }>;
type AttributesChanged = Extract<CaseEvent, { type: 'attributes_changed' }>;

function statementFor(subject: Case, event: CaseEvent, chainDepth: number, movedBy: MovingRun | undefined): [string, unknown[]] {
  switch (event.type) {
    case 'status_changed':
      return changeStatus(subject, event, chainDepth, movedBy);
    case 'attributes_changed': {
      const { type, actor, data } = eventColumns(event);
      return [MERGE_ATTRIBUTES_SQL, [subject.id, event.patch, type, actor, data]];
    }
    case 'created':
      throw new Error('a stored case cannot be created again');
  }
}

function changeStatus(subject: Case, event: StatusChanged, chainDepth: number, movedBy: MovingRun | undefined, mergedBefore?: AttributesChanged): [string, unknown[]] {
  const { type, actor, data } = eventColumns(event);
  const merge = mergedBefore ? eventColumns(mergedBefore) : undefined;
  return [
    CHANGE_STATUS_SQL,
    [
      subject.id, event.to, event.outcome, type, actor, data, subject.mode, event.startsRun, chainDepth, lifecycleEventTypes(event),
      movedBy?.runId ?? null, movedBy !== undefined, movedBy?.attempts ?? 0,
      mergedBefore?.patch ?? null, merge?.type ?? null, merge?.actor ?? null, merge?.data ?? null,
    ],
  ];
}

function createdFrom<A extends CreateAnswer>(row: CaseRow, answer: A): Created<A> {
  return (answer === 'case' ? { id: Number(row.id), case: toProps(row) } : { id: Number(row.id) }) as Created<A>;
}

function insertParams(draft: CaseDraft): unknown[] {
  const p = draft.props;
  const [created] = draft.events;
  if (created?.type !== 'created') throw new Error('a new case starts with its creation event');
  const { type, actor, data } = eventColumns(created);
  return [p.organizationId, p.workflowId, p.workflowVersion, p.subject, p.status, p.outcome, p.mode, p.source, p.attributes, type, actor, data, created.startsRun, lifecycleEventTypes(created)];
}

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { PreparedStatements } from '../../../shared/database/prepared-statements.js';
import type { Transaction } from '../../../shared/database/transaction.js';
import { Case, type CaseDraft, type CaseEvent, type CaseProps } from '../domain/case.js';
import { CaseRepository, type CreateResult, type IdempotencyClaim } from '../domain/case.repository.js';
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
 * A status change, the unfinished runs it supersedes (recorded on the timeline before the
 * change) and the run the new status starts.
 */
const CHANGE_STATUS_SQL = `
  WITH changed AS (
    UPDATE cases SET status = $2, outcome = $3, updated_at = now() WHERE id = $1 RETURNING *
  ), superseded AS (
    UPDATE workflow_runs SET state = 'superseded', finished_at = now(), locked_until = NULL
    WHERE case_id = $1 AND state IN ('pending', 'running', 'waiting') RETURNING id, status
  ), events AS (
    INSERT INTO case_events (case_id, type, actor, data)
    SELECT $1, type, actor, data FROM (
      SELECT 1 AS n, id AS run_id, 'run_superseded' AS type, 'engine' AS actor,
             jsonb_build_object('run_id', id, 'status', status) AS data FROM superseded
      UNION ALL
      SELECT 2, 0, $4, $5, $6::jsonb
    ) ordered ORDER BY n, run_id
  ), next_run AS (
    INSERT INTO workflow_runs (case_id, organization_id, workflow_id, workflow_version, status, mode, chain_depth)
    SELECT id, organization_id, workflow_id, workflow_version, $2, $7, $9 FROM changed WHERE $8::boolean
    RETURNING id
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

const FIND_CASE_SQL = `SELECT ${CASE_COLUMNS} FROM cases WHERE id = $1 AND workflow_id = $2 AND organization_id = $3`;
const LOCK_CASE_SQL = `SELECT ${CASE_COLUMNS} FROM cases WHERE id = $1 FOR UPDATE`;

@Injectable()
export class TypeOrmCaseRepository extends CaseRepository {
  private readonly prepared: PreparedStatements;

  constructor(@InjectDataSource() private readonly dataSource: DataSource, private readonly metrics: CaseMetrics) {
    super();
    this.prepared = new PreparedStatements(dataSource);
  }

  async create(draft: CaseDraft, idempotency?: IdempotencyClaim): Promise<CreateResult> {
    if (!idempotency) {
      const [row] = await this.prepared.rows<CaseRow>(INSERT_CASE_RETURNING_ROW, insertParams(draft));
      return { created: toProps(row!) };
    }
    return this.dataSource
      .transaction(async (manager) => {
        const [row] = (await manager.query(INSERT_CASE_RETURNING_ROW, insertParams(draft))) as CaseRow[];
        const created = toProps(row!);
        // An expired claim (older than 24 hours) is taken over; a live one wins and this case is rolled back.
        const claimed = (await manager.query(
          `INSERT INTO idempotency_keys (organization_id, key, request_hash, case_id) VALUES ($1, $2, $3, $4)
           ON CONFLICT (organization_id, key) DO UPDATE
             SET request_hash = EXCLUDED.request_hash, case_id = EXCLUDED.case_id, created_at = now()
             WHERE idempotency_keys.created_at < now() - interval '24 hours'
           RETURNING case_id`,
          [created.organizationId, idempotency.key, idempotency.requestHash, created.id],
        )) as unknown[];
        if (claimed.length) return { created };
        throw new ClaimTaken();
      })
      .catch(async (err: unknown) => {
        if (!(err instanceof ClaimTaken)) throw err;
        const claim = await this.findClaim(draft.props.organizationId, idempotency.key);
        if (!claim) throw new Error('idempotency key vanished while claimed');
        return { claimedBy: claim };
      });
  }

  async createReturningId(draft: CaseDraft): Promise<number> {
    const [row] = await this.prepared.rows<{ id: string }>(INSERT_CASE_RETURNING_ID, insertParams(draft));
    return Number(row!.id);
  }

  async find(organizationId: number, workflowId: number, caseId: number): Promise<CaseProps | null> {
    const [row] = await this.prepared.rows<CaseRow>(FIND_CASE_SQL, [caseId, workflowId, organizationId]);
    return row ? toProps(row) : null;
  }

  async findClaim(organizationId: number, key: string): Promise<{ caseId: number; requestHash: Buffer } | null> {
    const rows = (await this.dataSource.query(
      `SELECT case_id, request_hash FROM idempotency_keys
       WHERE organization_id = $1 AND key = $2 AND created_at >= now() - interval '24 hours'`,
      [organizationId, key],
    )) as { case_id: string; request_hash: Buffer }[];
    return rows[0] ? { caseId: Number(rows[0].case_id), requestHash: rows[0].request_hash } : null;
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

  store(tx: Transaction, subject: Case, chainDepth: number): Promise<{ case: CaseProps; startedRunIds: number[] }> {
    return this.storeEvents(tx, subject, chainDepth);
  }

  /** Stores each pending event in order; returns the row as it ends up and the runs started. */
  private async storeEvents(tx: Transaction, subject: Case, chainDepth: number): Promise<{ case: CaseProps; startedRunIds: number[] }> {
    let props: CaseProps = subject.snapshot();
    const startedRunIds: number[] = [];
    for (const event of subject.pullEvents()) {
      const [row] = (await PreparedStatements.rowsIn(tx, ...statementFor(subject, event, chainDepth))) as [CaseRow & { superseded_runs?: number; started_run_id?: string | null }];
      this.metrics.runsSuperseded(subject.mode, row.superseded_runs ?? 0);
      if (row.started_run_id) startedRunIds.push(Number(row.started_run_id));
      props = toProps(row);
    }
    return { case: props, startedRunIds };
  }
}

class ClaimTaken extends Error {}

function statementFor(subject: Case, event: CaseEvent, chainDepth: number): [string, unknown[]] {
  const { type, actor, data } = eventColumns(event);
  switch (event.type) {
    case 'status_changed':
      return [CHANGE_STATUS_SQL, [subject.id, event.to, event.outcome, type, actor, data, subject.mode, event.startsRun, chainDepth, lifecycleEventTypes(event)]];
    case 'attributes_changed':
      return [MERGE_ATTRIBUTES_SQL, [subject.id, event.patch, type, actor, data]];
    case 'created':
      throw new Error('a stored case cannot be created again');
  }
}

function insertParams(draft: CaseDraft): unknown[] {
  const p = draft.props;
  const [created] = draft.events;
  if (created?.type !== 'created') throw new Error('a new case starts with its creation event');
  const { type, actor, data } = eventColumns(created);
  return [p.organizationId, p.workflowId, p.workflowVersion, p.subject, p.status, p.outcome, p.mode, p.source, p.attributes, type, actor, data, created.startsRun, lifecycleEventTypes(created)];
}

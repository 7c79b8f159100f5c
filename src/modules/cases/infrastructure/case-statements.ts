import { type Column, column, type RowOf } from '../../../shared/database/typed-statement.js';
import { type CasesStatement, statementBuilder } from './persistence.js';
import type { CaseDraft } from '../domain/case.js';
import type { CreateAnswer, DeliveryKey } from '../domain/case.repository.js';
import { lifecycleEventTypes } from '../domain/case-lifecycle.js';
import type { CaseStatementPart, CreatedCaseStatement } from '../domain/case-statement-parts.js';
import { storeChangesStatement, type StoredChangesRow } from './case-changes.sql.js';
import { CASE_COLUMNS } from './case.mapper.js';
import { CASE_ROW } from './case-row.columns.js';
import { caseRowView } from './case-row-view.sql.js';
import { creationRow } from './case-timeline.js';

/** The new case of an intake statement: its row, or its id alone (CreateAnswer). */
export type NewCaseRow = RowOf<typeof CASE_ROW> | { id: string };
/** A row of an intake statement: the new case, or, for a duplicate delivery, nulls and the case its key kept. */
export type InsertedRow = NewCaseRow | { id: null; kept_case_id: string };

const CREATED: CreatedCaseStatement = { newCase: caseRowView('c', 'new_case'), eventTypes: '$14' };

/**
 * One statement stores a case, its creation event, its pending run and what the other modules'
 * parts write with it (the report log, the outbox): one round trip on the intake path, atomic
 * without an explicit transaction.
 */
function insertCaseSql(holdings: string, returning: string): string {
  return `
    WITH new_case AS (
      INSERT INTO cases (organization_id, workflow_id, workflow_version, subject, status, outcome, mode, source, attributes)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb)
      RETURNING *
    )${holdings}
    SELECT ${returning} FROM new_case`;
}

/** What goes with a new case (`new_case`, which may be empty): its creation event, its pending run, the parts. */
function caseHoldingsSql(parts: readonly CaseStatementPart[]): string {
  return `, created_event AS (
      INSERT INTO case_events (organization_id, case_id, type, actor, data)
      SELECT $1, id, $10, $11, $12::jsonb FROM new_case
    ), first_run AS (
      INSERT INTO workflow_runs (case_id, organization_id, workflow_id, workflow_version, status, mode)
      SELECT id, $1, $2, $3, $5, $7 FROM new_case WHERE $13::boolean
    )${parts.map((part) => part.created?.(CREATED) ?? '').join('')}`;
}

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
function insertDeduplicatedCaseSql(holdings: string, returning: string): string {
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
    )${holdings}
    SELECT ${returning}, kept_case_id FROM claim LEFT JOIN new_case ON true`;
}

/**
 * The parts are other modules' (checked by the case statement parts' own test). The intake
 * statements' shapes are declared with a stand-in for them, reading only the parameter handed to
 * them ($14, text[]): Postgres cannot type a parameter that nothing reads below one the statement
 * reads (the de-duplicating one's $15).
 */
const PARTS_STAND_IN: CaseStatementPart = { name: 'stand_in', created: ({ eventTypes }) => `, event_types AS (SELECT ${eventTypes}::text[])` };
const NEW_CASE_ID = { id: column.int8 };
const KEPT_CASE = { kept_case_id: column.int8 };

/** An intake statement (`sql`) answering `returning`, as `columns`, with the parts that go with a new case. */
const intake = <C extends Readonly<Record<string, Column<unknown>>>>(sql: (holdings: string, returning: string) => string, returning: string, columns: C) =>
  statementBuilder((parts: readonly CaseStatementPart[]) => sql(caseHoldingsSql(parts), returning), columns, [[[PARTS_STAND_IN]]]);

const insertCase = { case: intake(insertCaseSql, CASE_COLUMNS, CASE_ROW), id: intake(insertCaseSql, 'id', NEW_CASE_ID) };
/** A duplicate's case columns are null: InsertedRow says so, which columns cannot. */
const insertDeduplicatedCase = {
  case: intake(insertDeduplicatedCaseSql, CASE_COLUMNS, { ...CASE_ROW, ...KEPT_CASE }),
  id: intake(insertDeduplicatedCaseSql, 'id', { ...NEW_CASE_ID, ...KEPT_CASE }),
};

/** The statements that store a case, with the parts other modules add to them: composed once, as the first case is stored. */
export class CaseStatements {
  private readonly insertCase: Record<CreateAnswer, CasesStatement<InsertedRow>>;
  private readonly insertDeduplicatedCase: Record<CreateAnswer, CasesStatement<InsertedRow>>;
  readonly storeChanges: CasesStatement<StoredChangesRow>;

  constructor(parts: readonly CaseStatementPart[]) {
    this.insertCase = { case: insertCase.case(parts), id: insertCase.id(parts) };
    this.insertDeduplicatedCase = { case: insertDeduplicatedCase.case(parts), id: insertDeduplicatedCase.id(parts) };
    this.storeChanges = storeChangesStatement(parts);
  }

  /**
   * The intake statement and its parameters for a new case (with a delivery key, the
   * de-duplicating one): what the repository's `create` sends, and what the benchmark's
   * database-limit reference (bench/pgbench-reference.ts) runs with pgbench.
   */
  insert(draft: CaseDraft, answer: CreateAnswer, delivery?: DeliveryKey): { statement: CasesStatement<InsertedRow>; values: unknown[] } {
    if (!delivery) return { statement: this.insertCase[answer], values: insertParams(draft) };
    return { statement: this.insertDeduplicatedCase[answer], values: [...insertParams(draft), delivery.hash, delivery.windowSeconds] };
  }
}

function insertParams(draft: CaseDraft): unknown[] {
  const p = draft.props;
  const [created] = draft.events;
  if (created?.type !== 'created') throw new Error('a new case starts with its creation event');
  const { type, actor, data } = creationRow(created);
  return [p.organizationId, p.workflowId, p.workflowVersion, p.subject, p.status, p.outcome, p.mode, p.source, p.attributes, type, actor, data, created.startsRun, lifecycleEventTypes(created)];
}

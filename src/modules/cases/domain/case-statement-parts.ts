/**
 * What other modules keep of a case's life in their own tables (the outbox and its deliveries,
 * the report log) is written by the very statements that store the case: intake stays one round
 * trip, and a change and what follows from it commit together. The cases module names none of
 * those tables: each owner registers a part at start, and the case repository adds every part
 * to its statements; the retention purge of closed cases asks the parts what keeps a case and
 * deletes what they hold of it first. Statement parts are SQL text: CTEs, each `, name AS (...)`,
 * named by their owner.
 */
export interface CaseStatementPart {
  /** Orders the parts in a statement, so every instance prepares the same text. */
  readonly name: string;
  /** CTEs of the statement that creates a case. */
  created?(statement: CreatedCaseStatement): string;
  /** CTEs of a statement that stores a case's changes up to and including one status change. */
  changed?(statement: ChangedCaseStatement): string;
  /** `FROM ... WHERE ...`: a row of the owner's that keeps the closed case `c` from being purged (work not done yet). */
  keepsCase?(c: CaseRowView): string;
  /** Deletes what the owner holds of the closed cases being purged (`caseIds`, locked, of `organizationId`), before they go, in the purge's transaction. */
  purgeBefore?(query: SqlQuery, caseIds: readonly number[], organizationId: number): Promise<PurgedRowCounts>;
}

/** A statement whose rows are `Row`: the infrastructure's typed statements (shared/database) are such. */
export interface RowsStatement<Row> {
  readonly text: string;
  /** Never set: carries the row's type. */
  readonly row?: Row;
}

/** Runs one statement in the transaction at hand and answers its rows. */
export type SqlQuery = <Row>(statement: RowsStatement<Row>, parameters: readonly unknown[]) => Promise<Row[]>;

/** Rows purged, by kind (the retention module's names). */
export type PurgedRowCounts = Record<string, number>;

/**
 * A case's row in a statement, as the cases module publishes it to other modules' parts: the
 * `FROM` item that brings the row in and an SQL expression for each thing a part may read of it.
 * Parts name no column of `cases`, so a column renamed or moved changes this view's builder only,
 * and a part that wants something the view does not offer is a compile error.
 */
export interface CaseRowView {
  /** The `FROM` item (a CTE or the table, with its alias). */
  readonly from: string;
  readonly id: string;
  readonly organizationId: string;
  readonly workflowId: string;
  /** text: the case's status. */
  readonly status: string;
  /** text: `webhook`, `api`, a form's, ... */
  readonly source: string;
  readonly createdAt: string;
  /** boolean: a live case, not a test-mode one (test cases tell subscribers, listeners and reports nothing). */
  readonly isLive: string;
  /** jsonb: the case as the cases API shows it, what subscribers and listeners are told. */
  readonly payload: string;
}

/** Names the parts of an intake statement may read: the new case's row and SQL parameters. */
export interface CreatedCaseStatement {
  /** The new case's row; none when no case was created. */
  readonly newCase: CaseRowView;
  /** The lifecycle event types to tell subscribers (text[]), in order. */
  readonly eventTypes: string;
}

/** Names the parts of a change statement may read: the case's rows and SQL parameters. */
export interface ChangedCaseStatement {
  /** The case as it was before the statement. */
  readonly before: CaseRowView;
  /** The case's row after the change; none when nothing changed. */
  readonly changed: CaseRowView;
  /** Whether the case moved (boolean), and to which status (text). */
  readonly moved: string;
  readonly to: string;
  /** The stored runs' new states and errors (text[] each, in the same order). */
  readonly runStates: string;
  readonly runErrors: string;
  /** The lifecycle event types to tell subscribers (text[]), in order. */
  readonly eventTypes: string;
  /** What each of those events tells besides the case (jsonb[], null for nothing), in the same order. */
  readonly eventDetails: string;
}

/**
 * The parts registered so far. The case repository reads them once, at its first statement,
 * and a part added after that would be missing from statements already prepared, so adding one
 * then fails.
 */
export class CaseStatementParts {
  private readonly parts = new Map<string, CaseStatementPart>();
  private sealed = false;

  add(part: CaseStatementPart): void {
    if (this.sealed) throw new Error(`the case statement part "${part.name}" came after the case statements were built`);
    if (this.parts.has(part.name)) throw new Error(`two case statement parts are named "${part.name}"`);
    this.parts.set(part.name, part);
  }

  all(): CaseStatementPart[] {
    this.sealed = true;
    return [...this.parts.values()].sort((a, b) => a.name.localeCompare(b.name));
  }
}

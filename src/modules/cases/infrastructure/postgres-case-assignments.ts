import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { Transaction } from '../../../shared/database/transaction.js';
import { column } from '../../../shared/database/typed-statement.js';
import { firstRowOf, rowsOf, statement } from './persistence.js';
import { entityManager } from '../../../shared/database/typeorm-transaction-runner.js';
import { CaseAssignments } from '../domain/case-work.ports.js';

const ASSIGNEE = statement('SELECT assignee_id FROM cases WHERE id = $1 AND organization_id = $2', { assignee_id: column.nullable(column.int8) });
/** Counts the moved cases in SQL: a team may hold many, and none of their ids is wanted. */
const DROP_TEAM = statement(
  `WITH locked AS (SELECT id FROM cases WHERE organization_id = $1 AND team_id = $2 ORDER BY id FOR UPDATE),
        moved AS (UPDATE cases SET team_id = NULL, change_xid = pg_current_xact_id() FROM locked WHERE cases.id = locked.id RETURNING 1)
   SELECT count(*)::int AS moved FROM moved`,
  { moved: column.int4 },
);
const OPEN_ASSIGNED = statement(
  `SELECT assignee_id, count(*)::int AS open FROM cases
       WHERE organization_id = $1 AND assignee_id = ANY($2::bigint[]) AND status <> 'Closed' AND NOT (id = ANY($3::bigint[])) GROUP BY assignee_id`,
  { assignee_id: column.int8, open: column.int4 },
);

/**
 * Both walk cases_by_team and cases_by_assignee, the partial indexes of assigned cases. A team's
 * deletion locks its cases in id order, as the engine's batches do (so neither waits for the
 * other in a circle), and moves them in the change feed, as every update of cases does.
 */
@Injectable()
export class PostgresCaseAssignments extends CaseAssignments {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    super();
  }

  async assigneeOf(organizationId: number, caseId: number, tx?: Transaction): Promise<number | null> {
    const row = await firstRowOf(tx ? entityManager(tx) : this.dataSource, ASSIGNEE, [caseId, organizationId]);
    return row?.assignee_id == null ? null : Number(row.assignee_id);
  }

  async dropTeam(tx: Transaction, organizationId: number, teamId: number): Promise<number> {
    return (await firstRowOf(entityManager(tx), DROP_TEAM, [organizationId, teamId]))!.moved;
  }

  async openAssigned(tx: Transaction, organizationId: number, userIds: readonly number[], excluding: readonly number[]): Promise<Map<number, number>> {
    const rows = await rowsOf(entityManager(tx), OPEN_ASSIGNED, [organizationId, userIds, excluding]);
    return new Map(rows.map((row) => [Number(row.assignee_id), row.open]));
  }
}

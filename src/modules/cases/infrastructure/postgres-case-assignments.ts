import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { Transaction } from '../../../shared/database/transaction.js';
import { column } from '../../../shared/database/typed-statement.js';
import { firstRowOf, rowsOf, statement } from './persistence.js';
import { entityManager } from '../../../shared/database/typeorm-transaction-runner.js';
import type { ChangeAuthor } from '../../audit/domain/audit-entry.js';
import { actorOf, assigneeNamed } from '../domain/case-work.js';
import { CaseAssignments, CaseWorkDirectory } from '../domain/case-work.ports.js';
import { timelineRow } from './case-timeline.js';

const ASSIGNEE = statement('SELECT assignee_id FROM cases WHERE id = $1 AND organization_id = $2', { assignee_id: column.nullable(column.int8) });
/** The team's cases locked (in id order), and who they are assigned to: a few people, however many cases. */
const LOCK_TEAM_CASES = statement(
  `SELECT DISTINCT assignee_id FROM (SELECT id, assignee_id FROM cases WHERE organization_id = $1 AND team_id = $2 ORDER BY id FOR UPDATE) locked`,
  { assignee_id: column.nullable(column.int8) },
);
/**
 * Moves the team's cases assigned to one of $4 (null for none, each with its timeline row's data
 * in $5) and writes each its timeline row; the count is made in SQL: a team may hold many, and
 * none of their ids is wanted. Those cases are locked already (LOCK_TEAM_CASES), so their
 * assignees are those read; a case given to the team since, to someone else, stays for the next
 * pass (TeamsService.delete).
 */
const DROP_TEAM = statement(
  `WITH moved AS (UPDATE cases c SET team_id = NULL, change_xid = pg_current_xact_id()
                  FROM unnest($4::bigint[], $5::jsonb[]) AS r(assignee_id, data)
                  WHERE c.organization_id = $1 AND c.team_id = $2 AND r.assignee_id IS NOT DISTINCT FROM c.assignee_id
                  RETURNING c.id, r.data),
        timeline AS (INSERT INTO case_events (organization_id, case_id, type, actor, data) SELECT $1, m.id, 'assigned', $3, m.data FROM moved m)
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
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly directory: CaseWorkDirectory,
  ) {
    super();
  }

  async assigneeOf(organizationId: number, caseId: number, tx?: Transaction): Promise<number | null> {
    const row = await firstRowOf(tx ? entityManager(tx) : this.dataSource, ASSIGNEE, [caseId, organizationId]);
    return row?.assignee_id == null ? null : Number(row.assignee_id);
  }

  async dropTeam(tx: Transaction, organizationId: number, team: { id: number; name: string }, by: ChangeAuthor): Promise<number> {
    const assigneeIds = (await rowsOf(entityManager(tx), LOCK_TEAM_CASES, [organizationId, team.id])).map((row) => (row.assignee_id === null ? null : Number(row.assignee_id)));
    if (assigneeIds.length === 0) return 0;
    const people = assigneeIds.filter((id) => id !== null);
    const emails = people.length ? (await this.directory.names(organizationId, people, [], tx)).users : new Map<number, string>();
    const actor = actorOf(by);
    const rows = assigneeIds.map((id) => {
      const assignee = assigneeNamed(id, emails);
      return timelineRow({ type: 'assigned', actor, from: { assignee, team }, to: { assignee, team: null } })!;
    });
    return (await firstRowOf(entityManager(tx), DROP_TEAM, [organizationId, team.id, rows[0]!.actor, assigneeIds, rows.map((row) => JSON.stringify(row.data))]))!.moved;
  }

  async openAssigned(tx: Transaction, organizationId: number, userIds: readonly number[], excluding: readonly number[]): Promise<Map<number, number>> {
    const rows = await rowsOf(entityManager(tx), OPEN_ASSIGNED, [organizationId, userIds, excluding]);
    return new Map(rows.map((row) => [Number(row.assignee_id), row.open]));
  }
}

import { Injectable } from '@nestjs/common';
import type { Transaction } from '../../../shared/database/transaction.js';
import { entityManager } from '../../../shared/database/typeorm-transaction-runner.js';
import { CaseAssignments } from '../application/case-work.ports.js';

/** Both walk cases_by_team and cases_by_assignee, the partial indexes of assigned cases. */
@Injectable()
export class PostgresCaseAssignments extends CaseAssignments {
  async dropTeam(tx: Transaction, organizationId: number, teamId: number): Promise<number> {
    const [, count] = (await entityManager(tx).query(
      `UPDATE cases SET team_id = NULL WHERE organization_id = $1 AND team_id = $2`,
      [organizationId, teamId],
    )) as [unknown, number];
    return count;
  }

  async openAssigned(tx: Transaction, organizationId: number, userIds: readonly number[]): Promise<Map<number, number>> {
    const rows = (await entityManager(tx).query(
      `SELECT assignee_id, count(*)::int AS open FROM cases
       WHERE organization_id = $1 AND assignee_id = ANY($2::bigint[]) AND status <> 'Closed' GROUP BY assignee_id`,
      [organizationId, userIds],
    )) as { assignee_id: string; open: number }[];
    return new Map(rows.map((row) => [Number(row.assignee_id), row.open]));
  }
}

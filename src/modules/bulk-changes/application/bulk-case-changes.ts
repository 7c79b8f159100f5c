import { Injectable } from '@nestjs/common';
import type { Transaction } from '../../../shared/database/transaction.js';
import type { ChangeAuthor } from '../../audit/domain/audit-entry.js';
import { CaseWorkService } from '../../cases/application/case-work.service.js';
import type { BulkChange } from '../domain/bulk-job.js';

/**
 * A bulk job's change of one case: the cases module's single change (CaseWorkService, as the
 * admin API's PATCH makes it, with its timeline rows, event, run, audit entry and the
 * assignee's notification), inside the transaction that marks the case done in the job, so a
 * case changes once whatever process dies when.
 */
@Injectable()
export class BulkCaseChanges {
  constructor(private readonly work: CaseWorkService) {}

  /** Before the chunk's first change: its cases locked in id order (see CaseWorkService.lockForChanges). */
  lock(tx: Transaction, organizationId: number, caseIds: readonly number[]): Promise<void> {
    return this.work.lockForChanges(tx, organizationId, caseIds);
  }

  /** Why the case could not change (it is not the organization's, the assignee may not work cases, ...), or null once it changed. Throws only when the database does. */
  change(tx: Transaction, organizationId: number, caseId: number, change: BulkChange, by: ChangeAuthor): Promise<string | null> {
    return this.work.changeIn(tx, organizationId, caseId, { status: change.status, assigneeId: change.assignee_id, teamId: change.team_id, priority: change.priority }, by);
  }
}

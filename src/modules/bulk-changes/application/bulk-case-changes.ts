import { Injectable } from '@nestjs/common';
import type { Transaction } from '../../../shared/database/transaction.js';
import type { ChangeAuthor } from '../../audit/domain/audit-entry.js';
import { CaseWorkService } from '../../cases/application/case-work.service.js';
import { CaseWorkDirectory } from '../../cases/domain/case-work.ports.js';
import { TokensService } from '../../tokens/application/tokens.service.js';
import type { BulkChange } from '../domain/bulk-job.js';

/**
 * A bulk job's change of one case: the cases module's single change (CaseWorkService, as the
 * admin API's PATCH makes it, with its timeline rows, event, run, audit entry and the
 * assignee's notification), inside the transaction that marks the case done in the job, so a
 * case changes once whatever process dies when.
 */
@Injectable()
export class BulkCaseChanges {
  constructor(
    private readonly work: CaseWorkService,
    private readonly directory: CaseWorkDirectory,
    private readonly tokens: TokensService,
  ) {}

  /**
   * Whether who asked for a job may still change cases, as their next request would be let in:
   * a person still active with a role of `agent` or stronger, an admin token not deleted.
   */
  async mayStillChange(organizationId: number, by: ChangeAuthor): Promise<boolean> {
    const id = Number(by.actor.id);
    if (by.actor.type === 'user') return (await this.directory.workers(organizationId, [id])).has(id);
    if (by.actor.type === 'token') return (await this.tokens.list(organizationId)).some((token) => token.id === id && token.scope === 'admin');
    return true;
  }

  /** Before the chunk's first change: its cases locked in id order (see CaseWorkService.lockForChanges). */
  lock(tx: Transaction, organizationId: number, caseIds: readonly number[]): Promise<void> {
    return this.work.lockForChanges(tx, organizationId, caseIds);
  }

  /** Why the case could not change (it is not the organization's, the assignee may not work cases, ...), or null once it changed. Throws only when the database does. */
  change(tx: Transaction, organizationId: number, caseId: number, change: BulkChange, by: ChangeAuthor): Promise<string | null> {
    return this.work.changeIn(tx, organizationId, caseId, { status: change.status, assigneeId: change.assignee_id, teamId: change.team_id, priority: change.priority }, by);
  }
}

import type { Transaction } from '../../../shared/database/transaction.js';
import type { ValidationProblem } from '../../../shared/errors/app-error.js';
import type { ChangeAuthor } from '../../audit/domain/audit-entry.js';
import type { BulkChange } from '../domain/bulk-job.js';

/**
 * The seam between a bulk job and the cases module's single change of a case (casework.md,
 * section 2: `CaseWorkService.change(organizationId, caseId, change, actor)`): a bulk job changes
 * each case exactly as that change would (its timeline row, event, run and audit entry), inside
 * the transaction that marks the case done in the job, so a case changes once whatever process
 * dies when. Bound in BulkChangesModule.
 */
export abstract class BulkCaseChanges {
  /** What is wrong with the change as a whole, before any job is accepted (paths below `/change`); none when it may be tried on cases. */
  abstract check(organizationId: number, change: BulkChange): Promise<ValidationProblem[]>;

  /**
   * Changes one case of the organization inside `tx`, as `by` (a job's requester). Answers why
   * the case could not change (it does not exist in the organization, its workflow does not
   * declare the status, ...), or null once it changed. Throws only when the database does.
   */
  abstract change(tx: Transaction, organizationId: number, caseId: number, change: BulkChange, by: ChangeAuthor): Promise<string | null>;
}

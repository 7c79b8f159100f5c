import { Injectable } from '@nestjs/common';
import type { Transaction } from '../../../shared/database/transaction.js';
import type { ValidationProblem } from '../../../shared/errors/app-error.js';
import { AuditTrail } from '../../audit/application/audit-trail.js';
import type { ChangeAuthor } from '../../audit/domain/audit-entry.js';
import type { Actor } from '../../cases/domain/case.js';
import { StatusNotDeclaredError, StatusReservedForEngineError } from '../../cases/domain/case.errors.js';
import { CaseRepository } from '../../cases/domain/case.repository.js';
import { PublishedWorkflowsService } from '../../workflows/application/published-workflows.service.js';
import { BulkCaseChanges } from '../application/bulk-case-changes.js';
import { BULK_CHANGE_KEYS, type BulkChange } from '../domain/bulk-job.js';

const NOT_FOUND = 'the case does not exist or belongs to another organization';

/**
 * BulkCaseChanges for the status, the one change of a case the cases module makes today (as
 * the cases API's PATCH does: declared statuses only, never `Error`; the new status's run
 * starts). Assignee, team and priority come with the cases module's CaseWorkService, which
 * replaces this binding; until then they are refused before a job is accepted.
 */
@Injectable()
export class StatusBulkCaseChanges extends BulkCaseChanges {
  constructor(private readonly cases: CaseRepository, private readonly workflows: PublishedWorkflowsService, private readonly audit: AuditTrail) {
    super();
  }

  async check(_organizationId: number, change: BulkChange): Promise<ValidationProblem[]> {
    return BULK_CHANGE_KEYS.filter((key) => key !== 'status' && change[key] !== undefined).map((key) => ({ path: `/change/${key}`, error: `${key} cannot be changed in bulk yet` }));
  }

  async change(tx: Transaction, organizationId: number, caseId: number, change: BulkChange, by: ChangeAuthor): Promise<string | null> {
    const subject = (await this.cases.load(tx, [caseId])).get(caseId);
    if (!subject || subject.organizationId !== organizationId) return NOT_FOUND;
    if (change.status === undefined) return null;
    const from = subject.status;
    try {
      subject.moveTo(change.status, await this.workflows.version(subject.workflowId, subject.workflowVersion), caseActor(by));
    } catch (err) {
      if (err instanceof StatusNotDeclaredError || err instanceof StatusReservedForEngineError) return err.message;
      throw err;
    }
    await this.cases.save(tx, subject);
    await this.audit.record(tx, { organizationId, by, action: 'case.status_changed', target: { type: 'case', id: String(caseId) }, summary: { from, to: change.status } });
    return null;
  }
}

/** The case's timeline names the job's requester: the person, or the admin token. */
function caseActor(by: ChangeAuthor): Actor {
  return by.actor.type === 'user' ? { kind: 'user', userId: Number(by.actor.id) } : { kind: 'api_token', tokenId: Number(by.actor.id) };
}

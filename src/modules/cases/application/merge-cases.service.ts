import { Injectable } from '@nestjs/common';
import { TransactionRunner } from '../../../shared/database/transaction.js';
import { NotFoundError } from '../../../shared/errors/app-error.js';
import { AuditTrail } from '../../audit/application/audit-trail.js';
import type { ChangeAuthor } from '../../audit/domain/audit-entry.js';
import { PublishedWorkflowsService } from '../../workflows/application/published-workflows.service.js';
import type { Actor, CaseProps } from '../domain/case.js';
import { checkMergeTarget, mergeCases } from '../domain/case-merge.js';
import { CaseRepository } from '../domain/case.repository.js';
import { CaseMerges } from './case-merges.js';
import { CaseQueries } from './case-queries.js';

/** `POST /cases/{id}/merge` (casework.md, section 6). */
@Injectable()
export class MergeCasesService {
  constructor(
    private readonly queries: CaseQueries,
    private readonly workflows: PublishedWorkflowsService,
    private readonly cases: CaseRepository,
    private readonly merges: CaseMerges,
    private readonly transactions: TransactionRunner,
    private readonly audit: AuditTrail,
  ) {}

  /**
   * Merges case `caseId` into `intoId` and answers the target as stored. Both cases are locked
   * in id order, so of two merges crossing each other (A into B, B into A) the second waits,
   * then finds its case merged and is refused. The version the merged case runs on is loaded
   * before the locks (see ChangeCaseStatusService).
   */
  async merge(by: ChangeAuthor, actor: Actor, organizationId: number, caseId: number, intoId: number): Promise<CaseProps> {
    const [merged, into] = await Promise.all([this.queries.get(organizationId, caseId), this.queries.get(organizationId, intoId)]);
    if (!merged || !into) throw new NotFoundError('case');
    checkMergeTarget(merged, into);
    const rules = await this.workflows.version(merged.workflowId, merged.workflowVersion);
    return this.transactions.run(async (tx) => {
      const locked = await this.cases.lock(tx, organizationId, [caseId, intoId]);
      const subject = locked.get(caseId);
      const target = locked.get(intoId);
      if (!subject || !target) throw new NotFoundError('case');
      mergeCases(subject, target, rules, actor, await this.merges.pointers(tx, organizationId, [caseId, intoId]));
      await this.cases.save(tx, subject);
      const stored = await this.cases.save(tx, target);
      await this.merges.store(tx, organizationId, caseId, intoId);
      await this.audit.record(tx, { organizationId, by, action: 'case.merged', target: { type: 'case', id: String(caseId) }, summary: { into: intoId } });
      return stored;
    });
  }
}

import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../../../shared/errors/app-error.js';
import { PublishedWorkflowsService } from '../../workflows/application/published-workflows.service.js';
import type { CaseProps, ReceivedMessage } from '../domain/case.js';
import { CaseRepository, type ReplyUsage } from '../domain/case.repository.js';

/** Emails that belong to an existing case: the replies, threaded by Message-ID within a workflow. */
@Injectable()
export class CaseEmailsService {
  constructor(private readonly workflows: PublishedWorkflowsService, private readonly cases: CaseRepository) {}

  /** Which of the workflow's cases hold messages with these Message-IDs. */
  casesByMessageId(workflowId: number, messageIds: readonly string[]): Promise<Map<string, number>> {
    return messageIds.length ? this.cases.casesByMessageId(workflowId, messageIds) : Promise.resolve(new Map());
  }

  /** How many replies the case holds and how many bytes they and its files take (for the caps on replies). */
  replyUsage(caseId: number): Promise<ReplyUsage> {
    return this.cases.replyUsage(caseId);
  }

  /**
   * Adds a reply to its case under the case's row lock, with its files and Message-ID; a Closed
   * case reopens unless `reopens` is false. The version the case runs on is loaded before the
   * lock (see ChangeCaseStatusService).
   */
  async addReply(organizationId: number, workflowId: number, caseId: number, email: Record<string, unknown>, message: ReceivedMessage, reopens: boolean): Promise<CaseProps> {
    const found = await this.cases.find(organizationId, workflowId, caseId);
    if (!found) throw new NotFoundError('case');
    const version = await this.workflows.version(found.workflowId, found.workflowVersion);
    const changed = await this.cases.change(organizationId, workflowId, caseId, (subject) => subject.receiveEmail(email, message, version, reopens));
    if (!changed) throw new NotFoundError('case');
    return changed;
  }
}

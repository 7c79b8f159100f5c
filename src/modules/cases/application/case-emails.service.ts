import { Injectable } from '@nestjs/common';
import { TransactionRunner } from '../../../shared/database/transaction.js';
import { NotFoundError } from '../../../shared/errors/app-error.js';
import { PublishedWorkflowsService } from '../../workflows/application/published-workflows.service.js';
import type { CaseProps, ReceivedMessage } from '../domain/case.js';
import { CaseRepository, type ReplyUsage } from '../domain/case.repository.js';
import { CaseMerges } from './case-merges.js';
import { type CaseNotification, CaseNotifications } from './case-notifications.js';

/**
 * How many merges a reply follows. A merge moves its case's Message-IDs to the target, so a
 * reply finds the target at once; only a merge committing between the look-up and the reply's
 * lock sends it on, and a case is merged only once, into a case never merged.
 */
const MAX_MERGE_HOPS = 3;

/** Emails that belong to an existing case: the replies, threaded by Message-ID within a workflow. */
@Injectable()
export class CaseEmailsService {
  constructor(
    private readonly workflows: PublishedWorkflowsService,
    private readonly cases: CaseRepository,
    private readonly merges: CaseMerges,
    private readonly transactions: TransactionRunner,
    private readonly notifications: CaseNotifications,
  ) {}

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
   * case reopens unless `reopens` is false. A case merged meanwhile passes the reply on to the
   * case it went into. The version the case runs on is loaded before the lock (see
   * ChangeCaseStatusService). `told`, given the id of the case the reply landed on, is what its
   * watchers are told, queued in the reply's transaction: a crash after the commit loses nothing.
   */
  async addReply(
    organizationId: number,
    workflowId: number,
    caseId: number,
    email: Record<string, unknown>,
    message: ReceivedMessage,
    reopens: boolean,
    told?: (caseId: number) => CaseNotification,
  ): Promise<CaseProps> {
    let target = caseId;
    for (let hop = 0; hop < MAX_MERGE_HOPS; hop++) {
      const found = await this.cases.find(organizationId, workflowId, target);
      if (!found) throw new NotFoundError('case');
      const version = await this.workflows.version(found.workflowId, found.workflowVersion);
      const added = await this.transactions.run(async (tx): Promise<{ stored: CaseProps } | { mergedInto: number }> => {
        const subject = (await this.cases.lock(tx, organizationId, [target])).get(target);
        if (!subject) throw new NotFoundError('case');
        const mergedInto = (await this.merges.pointers(tx, organizationId, [target])).get(target);
        if (mergedInto !== undefined) return { mergedInto };
        subject.receiveEmail(email, message, version, reopens);
        const stored = await this.cases.save(tx, subject);
        if (told) await this.notifications.notify(told(stored.id), tx);
        return { stored };
      });
      if ('stored' in added) return added.stored;
      target = added.mergedInto;
    }
    throw new Error(`a reply to case ${caseId} followed ${MAX_MERGE_HOPS} merges`);
  }
}

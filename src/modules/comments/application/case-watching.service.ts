import { Injectable } from '@nestjs/common';
import { InvalidRequestError, NotFoundError } from '../../../shared/errors/app-error.js';
import { type Transaction, TransactionRunner } from '../../../shared/database/transaction.js';
import type { ChangeAuthor } from '../../audit/domain/audit-entry.js';
import { AuditTrail } from '../../audit/application/audit-trail.js';
import { type CaseNotification, CaseNotifications } from '../../cases/application/case-notifications.js';
import { CaseRepository } from '../../cases/domain/case.repository.js';
import { CaseAssignments } from '../../cases/domain/case-work.ports.js';
import { summaryLine } from '../domain/notification.js';
import { NotificationStore, WatcherStore } from './comment-ports.js';

/** An admin token calling a route about "me": its role allows the route, but it is no person to watch or be notified (422, not 403). */
export class NotAPersonError extends InvalidRequestError {
  constructor() {
    super('only a signed-in person can watch cases or have notification preferences; an admin token cannot');
  }
}

/**
 * Watching cases, and the notifications port (CaseNotifications) other modules call: a
 * notification without people goes to everyone watching the case, the assignee included.
 */
@Injectable()
export class CaseWatchingService extends CaseNotifications {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly cases: CaseRepository,
    private readonly watchers: WatcherStore,
    private readonly assignees: CaseAssignments,
    private readonly store: NotificationStore,
    private readonly audit: AuditTrail,
  ) {
    super();
  }

  /** `userId` null (an admin token): NotAPersonError, once the case is known to be the organization's. */
  async watch(organizationId: number, caseId: number, userId: number | null, by: ChangeAuthor, watching: boolean): Promise<void> {
    await this.transactions.run(async (tx) => {
      if (!(await this.cases.lock(tx, organizationId, [caseId])).has(caseId)) throw new NotFoundError('case');
      if (userId === null) throw new NotAPersonError();
      if (watching) await this.watchers.watch(tx, organizationId, caseId, [userId]);
      else await this.watchers.unwatch(tx, organizationId, caseId, userId);
      await this.audit.record(tx, { organizationId, by, action: watching ? 'case.watched' : 'case.unwatched', target: { type: 'case', id: String(caseId) } });
    });
  }

  /**
   * Everyone watching the case: its watchers and its assignee. Read inside `tx` when given: a
   * caller holding a transaction (and a case's lock) waits for no second pool connection.
   */
  async watching(organizationId: number, caseId: number, tx?: Transaction): Promise<number[]> {
    const watchers = await this.watchers.watchersOf(organizationId, caseId, tx);
    const assignee = await this.assignees.assigneeOf(organizationId, caseId, tx);
    return [...new Set([...watchers, ...(assignee === null ? [] : [assignee])])];
  }

  async notify(notification: CaseNotification, tx?: Transaction): Promise<void> {
    const userIds = notification.userIds ?? (await this.watching(notification.organizationId, notification.caseId, tx));
    if (!userIds.length) return;
    await this.store.queue(tx, { ...notification, userIds, summary: summaryLine(notification.summary) });
  }
}

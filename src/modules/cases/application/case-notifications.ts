import type { Transaction } from '../../../shared/database/transaction.js';

/**
 * What people are told about, by kind. `assigned` and `mentioned` follow the person's own
 * preference of that name; the others are about cases they watch (`watched`).
 */
export const NOTIFICATION_KINDS = ['assigned', 'mentioned', 'requester_replied', 'error', 'sla_warning', 'sla_breached'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export interface CaseNotification {
  organizationId: number;
  caseId: number;
  /** The people to tell; omitted: everyone watching the case (its assignee included). */
  userIds?: readonly number[];
  kind: NotificationKind;
  /** One line of what happened (cut to 300 characters; never a comment's body). */
  summary: string;
}

/**
 * The port any module calls to tell people by mail about a case (casework.md section 4):
 * queued in Postgres, mailed by a worker, at most one mail per person and case a minute that
 * sums up what happened. Defined here, by the cases module that its callers (assignment, SLA,
 * email replies) depend on anyway; implemented and bound globally by the comments module.
 */
export abstract class CaseNotifications {
  /** Queued in `tx` when given: with the change it tells of, so it is queued exactly when that change is. */
  abstract notify(notification: CaseNotification, tx?: Transaction): Promise<void>;
}

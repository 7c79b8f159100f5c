import type { Transaction } from '../../../shared/database/transaction.js';
import type { Assignment } from '../domain/case-work.js';

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
  /** Inside `tx` when given: the notification is queued with the change it tells of, or not at all. */
  abstract notify(notification: CaseNotification, tx?: Transaction): Promise<void>;
}

/**
 * What an assignment tells: the new assignee, that the case is theirs now; nothing when the
 * assignee did not change or is the person who made the change (`byUserId`), who knows.
 */
export function assignedNotification(organizationId: number, caseId: number, from: Assignment, to: Assignment, byUserId: number | null): CaseNotification | null {
  const assignee = to.assignee;
  if (!assignee || assignee.id === from.assignee?.id || assignee.id === byUserId) return null;
  return { organizationId, caseId, userIds: [assignee.id], kind: 'assigned', summary: `Case #${caseId} was assigned to you${to.team ? ` (team ${to.team.name})` : ''}` };
}

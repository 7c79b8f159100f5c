import type { Transaction } from '../../../shared/database/transaction.js';
import type { NotificationKind } from '../../cases/application/case-notifications.js';
import type { Comment, CommentAuthor, Visibility } from '../domain/comment.js';
import type { NotificationPreferences } from '../domain/notification.js';

export interface NewComment {
  organizationId: number;
  caseId: number;
  author: CommentAuthor;
  visibility: Visibility;
  body: string;
}

/** A public reply's mail as queued: everything a sender needs but the body, which stays on the comment. */
export interface QueuedReply {
  from: string;
  to: string[];
  subject: string;
  messageId: string;
  inReplyTo: string | null;
  references: string[];
}

/** Comments and the mails of public replies; bound to the module's infrastructure. */
export abstract class CommentStore {
  /** Stores the comment and (for a public reply) its queued mail, in the transaction of the case's change. */
  abstract insert(tx: Transaction, comment: NewComment, reply: QueuedReply | null): Promise<Comment>;
  /** The comments of these cases (a case and those merged into it) after comment `afterId`, oldest first. */
  abstract list(organizationId: number, caseIds: readonly number[], afterId: number, limit: number): Promise<Comment[]>;
  /**
   * The bodies of these cases' comments, oldest first, each cut to `maxChars`, of each case only
   * those that begin within its first `maxCaseChars` (what a search document can hold).
   */
  abstract bodies(cases: readonly CaseRef[], maxChars: number, maxCaseChars: number): Promise<CommentBody[]>;
}

export interface CaseRef {
  organizationId: number;
  id: number;
}

export interface CommentBody {
  caseId: number;
  id: number;
  body: string;
}

/** Who watches which case, as rows; the assignee counts without one (the cases module's CaseAssignments). */
export abstract class WatcherStore {
  abstract watch(tx: Transaction | undefined, organizationId: number, caseId: number, userIds: readonly number[]): Promise<void>;
  abstract unwatch(tx: Transaction, organizationId: number, caseId: number, userId: number): Promise<void>;
  /** Inside `tx` when given. */
  abstract watchersOf(organizationId: number, caseId: number, tx?: Transaction): Promise<number[]>;
}

export interface QueuedNotification {
  organizationId: number;
  caseId: number;
  userIds: readonly number[];
  kind: NotificationKind;
  summary: string;
}

/** Notifications waiting to be mailed, and each person's preferences. */
export abstract class NotificationStore {
  /** Queues the item for each person who has not turned its kind off, in `tx` when given. */
  abstract queue(tx: Transaction | undefined, notification: QueuedNotification): Promise<void>;
  abstract preferences(organizationId: number, userId: number): Promise<NotificationPreferences>;
  abstract setPreferences(tx: Transaction, organizationId: number, userId: number, preferences: NotificationPreferences): Promise<void>;
  abstract turnOff(tx: Transaction, organizationId: number, userId: number, preference: keyof NotificationPreferences): Promise<void>;
}

/** A public reply's mail taken by a sender for one attempt. */
export interface ClaimedReply extends QueuedReply {
  organizationId: number;
  commentId: number;
  body: string;
  authorName: string;
  attempt: number;
  /** Queued so long ago that a failure of this attempt gives it up. */
  lastChance: boolean;
}

/** One person's pending notifications on one case, taken by a sender for one attempt. */
export interface ClaimedBatch {
  organizationId: number;
  userId: number;
  caseId: number;
  attempt: number;
  /** The oldest item waiting has waited so long that a failure of this attempt gives the items up. */
  lastChance: boolean;
  /** The oldest items first, with their ids: what a sent mail covers. */
  items: { kind: NotificationKind; summary: string }[];
  itemIds: number[];
  /** How many more items wait than the mail lists (it says so). */
  more: number;
}

/** The queued mails, as the worker sees them; bound to the module's infrastructure. */
export abstract class CaseMailOutbox {
  abstract claimReplies(limit: number, leaseMs: number): Promise<ClaimedReply[]>;
  abstract renewReply(mail: ClaimedReply, leaseMs: number): Promise<void>;
  abstract replySent(mail: ClaimedReply): Promise<void>;
  /** Not sent: tried again after `delayMs`, or (null) failed for good with `error`. */
  abstract replyNotSent(mail: ClaimedReply, delayMs: number | null, error: string): Promise<void>;

  abstract claimBatches(limit: number, leaseMs: number): Promise<ClaimedBatch[]>;
  abstract renewBatch(batch: ClaimedBatch, leaseMs: number): Promise<void>;
  /** Mailed: its items go, and the batch is due again a minute from now if more came meanwhile. */
  abstract batchSent(batch: ClaimedBatch, windowMs: number): Promise<void>;
  /** Not mailed: tried again after `delayMs`, or (null) its items dropped. */
  abstract batchNotSent(batch: ClaimedBatch, delayMs: number | null): Promise<void>;
}

import type { CaseProps } from '../domain/case.js';

/** Where the search indexer stands in one workflow's change feed (docs/change-feed.md). */
export interface WorkflowFeedPosition {
  organizationId: number;
  workflowId: number;
  /** Transaction id (xid8) and case id, as decimal text; `0`, `0` before every change. */
  xid: string;
  caseId: string;
}

export interface ChangedCase {
  case: CaseProps;
  /** The case's new feed position (xid8 as decimal text). */
  xid: string;
}

/** A reply a case received by email: its subject and text, bounded. */
export interface CaseReply {
  caseId: number;
  id: number;
  subject: string | null;
  text: string | null;
}

/**
 * What the search module reads of the cases to keep its documents: the change feed of many
 * workflows at once, and the replies of the cases it indexes. Nothing of it runs on intake.
 */
export abstract class CaseSearchFeed {
  /**
   * Per workflow, the cases changed after its position (by transactions older than every one
   * still running, as the feed), in feed order; at most `limit` in all, each workflow's a prefix
   * of its feed, in the order of `positions`. Each prefix ends before the first case changed
   * less than `settledMs` ago: the cases after it wait for it, so none is passed over.
   */
  abstract changedAfter(positions: readonly WorkflowFeedPosition[], limit: number, settledMs: number): Promise<ChangedCase[]>;

  /** The replies of these cases, oldest first, each field cut to `maxChars`. */
  abstract replies(caseIds: readonly number[], maxChars: number): Promise<CaseReply[]>;
}

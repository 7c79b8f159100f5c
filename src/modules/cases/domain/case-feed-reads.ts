import type { CaseProps } from './case.js';

/** A row of a case's timeline as another module reads it. */
export interface CaseTimelineRow {
  id: number;
  type: string;
  data: Record<string, unknown>;
  createdAt: Date;
}

/**
 * What a module that follows cases as they change (the SLA sweep) reads of them: a workflow's
 * change feed (docs/change-feed.md) behind an opaque cursor, and a case's timeline. Implemented
 * by the cases module's application, which alone reads case tables.
 */
export abstract class CaseFeedReads {
  /**
   * The workflow's cases changed after `cursor` (null: from the start), in feed order, at most
   * `limit`, and the cursor after them; `expired` (and no case) when cases purged meanwhile lie
   * past the cursor: start again from null.
   */
  abstract changes(organizationId: number, workflowId: number, cursor: string | null, limit: number): Promise<{ expired: boolean; cases: CaseProps[]; cursor: string }>;

  /** Oldest first, the case's timeline rows after `afterId` (decimal text, '0' from the start), at most `limit`; none for a case of another organization. */
  abstract timeline(organizationId: number, caseId: number, afterId: string, limit: number): Promise<CaseTimelineRow[]>;
}

import { Injectable } from '@nestjs/common';
import { CaseFeedReads, type CaseTimelineRow } from '../domain/case-feed-reads.js';
import type { CaseProps } from '../domain/case.js';
import { nextFeedCursor, readFeedCursor } from './case-cursors.js';
import { CaseQueries } from './case-queries.js';

/** CaseFeedReads over the read port the cases API uses, with the API's own cursors. */
@Injectable()
export class QueriedCaseFeed extends CaseFeedReads {
  constructor(private readonly queries: CaseQueries) {
    super();
  }

  async changes(organizationId: number, workflowId: number, cursor: string | null, limit: number): Promise<{ expired: boolean; cases: CaseProps[]; cursor: string }> {
    const after = cursor === null ? null : (readFeedCursor(cursor) ?? null);
    const page = await this.queries.changes(organizationId, workflowId, after, limit);
    return { expired: page.expired, cases: page.changed.map((c) => c.case), cursor: nextFeedCursor(cursor, page) };
  }

  async timeline(organizationId: number, caseId: number, afterId: string, limit: number): Promise<CaseTimelineRow[]> {
    return ((await this.queries.timeline(organizationId, caseId, afterId, limit)) ?? []).map(({ id, type, data, createdAt }) => ({ id, type, data, createdAt }));
  }
}

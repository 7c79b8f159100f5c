import { Injectable } from '@nestjs/common';
import { Env } from '../../../shared/config/env.js';
import { KeyedSemaphore } from '../../../shared/concurrency/keyed-semaphore.js';
import { TimeBudgets } from '../../../shared/concurrency/time-budgets.js';
import { AppError, NotFoundError, RateLimitedError } from '../../../shared/errors/app-error.js';
import { TokensService } from '../../tokens/application/tokens.service.js';
import { PublishedWorkflowsService } from '../../workflows/application/published-workflows.service.js';
import type { CaseProps } from '../domain/case.js';
import { FEED_START, feedCursor, listCursor, readFeedCursor, readListCursor, readRunsCursor, readTimelineCursor, runsCursor, timelineCursor } from './case-cursors.js';
import { type CaseFilter, CaseQueries, type StoredAttachment, type StoredRun } from './case-queries.js';

/**
 * How long a list read past LIST_READS_PER_ORGANIZATION waits for one of its organization's to
 * finish; as many may wait as run. Long enough to smooth a burst of cheap pages, short against
 * the seconds an expensive filter can take: a client whose reads are slow is told to come back.
 */
const LIST_READ_WAIT_MS = 1000;
const LIST_READ_RETRY_AFTER_SECONDS = 1;

export class FeedCursorExpiredError extends AppError {
  readonly code = 'feed.cursor_expired';
  constructor() {
    super('this cursor is older than the changes still kept: list the cases again and follow the feed from its start');
  }
}

/** A list filter as the HTTP layer has it: the cursor still opaque (already checked by the request's validation). */
export type ListRequest = Omit<CaseFilter, 'after'> & { cursor?: string };

export interface CasePage {
  cases: CaseProps[];
  nextCursor: string | null;
}

export interface TimelineEvent {
  id: number;
  type: string;
  by: { type: string; id?: number; name?: string; source_type?: string };
  at: string;
  [field: string]: unknown;
}

/**
 * Read side: the case list, a case's timeline and files, always within one organization. The
 * lists and the change feed, whose filters and pages can cost Postgres seconds, take one of
 * their organization's LIST_READS_PER_ORGANIZATION shares on this instance first (429 when none
 * comes within LIST_READ_WAIT_MS), so one tenant's reads hold a few of the backends every
 * tenant shares, never all of them; and each is charged to the organization's budget of
 * database time (LIST_READ_DATABASE_MS_PER_SECOND, 429 once spent), so they hold them only a
 * share of the time.
 */
@Injectable()
export class CaseQueriesService {
  private readonly listReads: KeyedSemaphore<number>;
  private readonly listReadTime: TimeBudgets<number>;

  constructor(private readonly queries: CaseQueries, private readonly workflows: PublishedWorkflowsService, private readonly tokens: TokensService, env: Env) {
    const perOrganization = env.LIST_READS_PER_ORGANIZATION;
    this.listReads = new KeyedSemaphore({ capacity: perOrganization, maxWaiting: perOrganization, waitMs: LIST_READ_WAIT_MS });
    this.listReadTime = new TimeBudgets({ msPerSecond: env.LIST_READ_DATABASE_MS_PER_SECOND, burstMs: env.LIST_READ_DATABASE_BURST_MS });
  }

  /**
   * Newest first by (created_at, id), keyset-paginated: a page starts strictly after the last
   * case of the one before, so a case that existed when the first page was read is never
   * repeated or skipped, whatever comes in meanwhile.
   */
  list(organizationId: number, request: ListRequest): Promise<CasePage> {
    return this.fairly(organizationId, () => this.page(organizationId, request));
  }

  /** The cases API's list: one workflow of the caller's organization (404 otherwise). */
  listWorkflow(organizationId: number, workflowId: number, request: Omit<ListRequest, 'workflowId' | 'source'>): Promise<CasePage> {
    return this.fairly(organizationId, async () => {
      await this.workflowOf(organizationId, workflowId);
      return this.page(organizationId, { ...request, workflowId });
    });
  }

  /**
   * One page of the workflow's change feed (docs/change-feed.md). The next cursor is the last
   * change delivered, or `after` itself when there was none: it always moves forward only.
   */
  changes(organizationId: number, workflowId: number, after: string | undefined, limit: number): Promise<CasePage & { nextCursor: string }> {
    return this.fairly(organizationId, async () => {
      await this.workflowOf(organizationId, workflowId);
      const page = await this.queries.changes(organizationId, workflowId, after === undefined ? null : decoded(readFeedCursor(after)), limit);
      if (page.expired) throw new FeedCursorExpiredError();
      const last = page.changed.at(-1);
      const nextCursor = last
        ? feedCursor({ after: last.position, readBelow: page.readBelow })
        : (after ?? feedCursor({ after: FEED_START, readBelow: page.readBelow }));
      return { cases: page.changed.map((c) => c.case), nextCursor };
    });
  }

  private async fairly<T>(organizationId: number, read: () => Promise<T>): Promise<T> {
    const waitMs = this.listReadTime.waitMs(organizationId);
    if (waitMs > 0) {
      const seconds = Math.ceil(waitMs / 1000);
      throw new RateLimitedError(seconds, `this organization's case list reads have spent their share of database time; retry in ${seconds} s`);
    }
    const release = await this.listReads.tryAcquire(organizationId);
    if (!release) throw new RateLimitedError(LIST_READ_RETRY_AFTER_SECONDS, `too many case list reads of this organization under way; retry in ${LIST_READ_RETRY_AFTER_SECONDS} s`);
    const started = performance.now();
    try {
      return await read();
    } finally {
      this.listReadTime.charge(organizationId, performance.now() - started);
      release();
    }
  }

  private async page(organizationId: number, request: ListRequest): Promise<CasePage> {
    const { cursor, ...filter } = request;
    const found = await this.queries.list(organizationId, { ...filter, after: cursor === undefined ? undefined : decoded(readListCursor(cursor)) });
    const page = found.slice(0, filter.limit);
    return { cases: page.map((c) => c.case), nextCursor: found.length > filter.limit ? listCursor(page.at(-1)!.position) : null };
  }

  private async workflowOf(organizationId: number, workflowId: number): Promise<void> {
    const state = await this.workflows.state(workflowId);
    if (!state || state.organizationId !== organizationId) throw new NotFoundError('workflow');
  }

  /** One case of the organization, whatever its workflow; with `watchers`, its watcher count too. */
  async get(organizationId: number, caseId: number, watchers = false): Promise<CaseProps> {
    const found = await this.queries.get(organizationId, caseId, watchers);
    if (!found) throw new NotFoundError('case');
    return found;
  }

  /** A file the case received (an email attachment); with `workflowId`, of a case of that workflow only. */
  async attachment(organizationId: number, caseId: number, attachmentId: string, workflowId?: number): Promise<StoredAttachment> {
    const found = await this.queries.attachment(organizationId, caseId, attachmentId, workflowId);
    if (!found) throw new NotFoundError('attachment');
    return found;
  }

  /**
   * Oldest first: creation, status changes, runs and their steps, replies; a page of `limit`
   * events after the cursor's (a case's events only ever grow at the end, so pages never repeat
   * or skip one).
   */
  async timeline(organizationId: number, caseId: number, page: { cursor?: string; limit: number }): Promise<{ events: TimelineEvent[]; nextCursor: string | null }> {
    const afterId = page.cursor === undefined ? '0' : decoded(readTimelineCursor(page.cursor));
    const found = await this.queries.timeline(organizationId, caseId, afterId, page.limit + 1);
    if (!found) throw new NotFoundError('case');
    const events = found.slice(0, page.limit).map((event) => ({ ...event, by: actorView(event.actor) }));
    const tokenIds = [...new Set(events.flatMap(({ by }) => (by.type === 'api_token' && by.id !== undefined ? [by.id] : [])))];
    const names = await this.tokens.names(organizationId, tokenIds);
    return {
      events: events.map(({ id, type, by, createdAt, data }) => ({ id, type, by: by.id !== undefined && names.has(by.id) ? { ...by, name: names.get(by.id) } : by, at: createdAt.toISOString(), ...data })),
      nextCursor: found.length > page.limit ? timelineCursor(String(events.at(-1)!.id)) : null,
    };
  }

  /**
   * Oldest first: the runs of the case's automation with the steps each executed; a page of
   * `limit` runs after the cursor's (runs are only ever added at the end).
   */
  async runs(organizationId: number, caseId: number, page: { after?: string; limit: number }): Promise<{ runs: StoredRun[]; nextCursor: string | null }> {
    const afterId = page.after === undefined ? '0' : decoded(readRunsCursor(page.after));
    const found = await this.queries.runs(organizationId, caseId, afterId, page.limit + 1);
    if (!found) throw new NotFoundError('case');
    const runs = found.slice(0, page.limit);
    return { runs, nextCursor: found.length > page.limit ? runsCursor(String(runs.at(-1)!.id)) : null };
  }
}

function actorView(actor: string): TimelineEvent['by'] {
  const [type, id] = actor.split(':');
  if (id === undefined) return { type: type! };
  return type === 'case_source' ? { type, source_type: id } : { type: type!, id: Number(id) };
}

/** A cursor the request validation accepted always decodes. */
function decoded<P>(position: P | undefined): P {
  if (position === undefined) throw new Error('a cursor that passed validation did not decode');
  return position;
}

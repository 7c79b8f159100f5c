import { setTimeout as sleep } from 'node:timers/promises';
import { Injectable } from '@nestjs/common';
import { Env } from '../../../shared/config/env.js';
import { KeyedSemaphore } from '../../../shared/concurrency/keyed-semaphore.js';
import { TimeBudgets } from '../../../shared/concurrency/time-budgets.js';
import { AppError, InvalidQueryError, NotFoundError, RateLimitedError } from '../../../shared/errors/app-error.js';
import { TokensService } from '../../tokens/application/tokens.service.js';
import { PublishedWorkflowsService } from '../../workflows/application/published-workflows.service.js';
import type { CaseProps } from '../domain/case.js';
import { type SearchScope, CaseTextSearches } from '../domain/case-text-search.js';
import { listCursor, nextFeedCursor, readFeedCursor, readListCursor, readRunsCursor, readTimelineCursor, runsCursor, type SearchPosition, timelineCursor } from './case-cursors.js';
import { CaseListSearches, cursorOfAnotherList, hasText } from './case-list-searches.js';
import { type CasePage, CaseQueries, DEFAULT_CASE_SORT, type ListFilterRequest, type ListRequest, type ListPosition, type Positioned, type StoredAttachment, type StoredRun, type TimelineEvent } from './case-queries.js';
import { CaseWorkDirectory } from '../domain/case-work.ports.js';

/**
 * How long a list read past LIST_READS_PER_ORGANIZATION waits for one of its organization's to
 * finish; as many may wait as run. Long enough to smooth a burst of cheap pages, short against
 * the seconds an expensive filter can take: a client whose reads are slow is told to come back.
 */
const LIST_READ_WAIT_MS = 1000;
const LIST_READ_RETRY_AFTER_SECONDS = 1;
/** How often a patient read (an export's next page) looks again for its share or its budget. */
const PATIENT_POLL_MS = 1000;

export class FeedCursorExpiredError extends AppError {
  readonly code = 'feed.cursor_expired';
  constructor() {
    super('this cursor is older than the changes still kept: list the cases again and follow the feed from its start');
  }
}

export type { CasePage, ListFilterRequest, ListRequest, TimelineEvent } from './case-queries.js';

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
  private readonly search: CaseListSearches;

  constructor(
    private readonly queries: CaseQueries,
    private readonly workflows: PublishedWorkflowsService,
    private readonly tokens: TokensService,
    private readonly directory: CaseWorkDirectory,
    searches: CaseTextSearches,
    env: Env,
  ) {
    this.search = new CaseListSearches(queries, searches);
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
    return this.fairly(organizationId, () => this.page(organizationId, request, 'admin'));
  }

  /** The cases API's list: one workflow of the caller's organization (404 otherwise). */
  listWorkflow(organizationId: number, workflowId: number, request: Omit<ListRequest, 'workflowId' | 'source'>): Promise<CasePage> {
    return this.fairly(organizationId, async () => {
      await this.workflowOf(organizationId, workflowId);
      return this.page(organizationId, { ...request, workflowId }, 'api');
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
      return { cases: page.changed.map((c) => c.case), nextCursor: nextFeedCursor(after ?? null, page) };
    });
  }

  /**
   * How many cases the list would show, counted up to `cap`: `capped` when there are more. The
   * list's own walk reading ids only, so a count costs at most `cap` rows, charged as a list read.
   */
  async countUpTo(organizationId: number, request: ListFilterRequest, cap: number): Promise<{ count: number; capped: boolean }> {
    const ids = await this.idsUpTo(organizationId, request, cap + 1);
    return { count: Math.min(ids.length, cap), capped: ids.length > cap };
  }

  /** The ids of the list's first `limit` cases (with `q`, by relevance tier), newest first, read as a list read. */
  idsUpTo(organizationId: number, request: ListFilterRequest, limit: number): Promise<number[]> {
    const { q, ...filter } = request;
    return this.fairly(organizationId, () => (hasText(q) ? this.search.ids(organizationId, filter, q, limit) : this.queries.ids(organizationId, { ...filter, limit })));
  }

  /**
   * Every case of the list (with `q`, by relevance tier), a page of `pageSize` at a time, for a
   * reader that takes them as it can (an export). The first page is read as any list read (429
   * before anything was sent), unless `firstWaits` (a walk that comes after reads its caller was
   * already let in for); each later page takes its share and its charge too, but waits for them
   * instead of failing midway: a long export goes at the pace its organization's budget of
   * database time allows. `stopped` ends the walk between pages (the reader went away).
   */
  async walk(organizationId: number, request: ListFilterRequest, pageSize: number, stopped: () => boolean, firstWaits = false): Promise<AsyncIterable<CaseProps[]>> {
    const readFirst = async () => {
      const reader = await this.pageReader(organizationId, request, pageSize);
      return { read: reader, first: await reader(undefined) };
    };
    const start = firstWaits ? await this.patiently(organizationId, readFirst, stopped) : await this.fairly(organizationId, readFirst);
    const patiently = (after: ListPosition) => this.patiently(organizationId, () => start!.read(after), stopped);
    return (async function* pages() {
      if (!start) return;
      for (let page = start.first; ; ) {
        yield page.slice(0, pageSize).map((c) => c.case);
        if (page.length <= pageSize || stopped()) return;
        const next = await patiently(page[pageSize - 1]!.position);
        if (!next) return;
        page = next;
      }
    })();
  }

  /**
   * Reads the list's cases after a position, `pageSize` and one more a read: with `q`, through
   * its tiers, each position then being the SearchPosition of a case this reader found.
   */
  private async pageReader(organizationId: number, request: ListFilterRequest, pageSize: number): Promise<(after: ListPosition | undefined) => Promise<Positioned<ListPosition>[]>> {
    const { q, ...filter } = request;
    if (!hasText(q)) return (after) => this.queries.list(organizationId, { ...filter, limit: pageSize, after });
    const search = await this.search.prepared(organizationId, filter, q, 'admin');
    return (after) => this.search.rows(organizationId, filter, search, after as SearchPosition | undefined, pageSize);
  }

  /**
   * A read another module makes for each case of a walk (the SLA report's timelines): charged to
   * the organization's list reads as a walk's later page is, waiting for its share and its budget;
   * undefined, unread, once `stopped`.
   */
  asWalkRead<T>(organizationId: number, read: () => Promise<T>, stopped: () => boolean): Promise<T | undefined> {
    return this.patiently(organizationId, read, stopped);
  }

  private async patiently<T>(organizationId: number, read: () => Promise<T>, stopped: () => boolean): Promise<T | undefined> {
    while (!stopped()) {
      const waitMs = this.listReadTime.waitMs(organizationId);
      if (waitMs > 0) {
        await sleep(Math.min(waitMs, PATIENT_POLL_MS));
        continue;
      }
      try {
        return await this.fairly(organizationId, read);
      } catch (err) {
        if (!(err instanceof RateLimitedError)) throw err;
      }
    }
    return undefined;
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

  private async page(organizationId: number, request: ListRequest, scope: SearchScope): Promise<CasePage> {
    const { cursor, q, ...filter } = request;
    if (hasText(q)) return this.search.page(organizationId, filter, q, cursor, scope);
    const after = cursor === undefined ? undefined : readListCursor(cursor);
    if (cursor !== undefined && !after) throw cursorOfAnotherList();
    if (after && after.sort !== (filter.sort ?? DEFAULT_CASE_SORT)) throw new InvalidQueryError([{ path: '/cursor', error: `cursor was read in the order ${after.sort}; pass the same sort` }]);
    const found = await this.queries.list(organizationId, { ...filter, after });
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

  /** The organization's cases among `caseIds`, by id (another organization's are absent). */
  async some(organizationId: number, caseIds: readonly number[]): Promise<Map<number, CaseProps>> {
    const found = caseIds.length ? await this.queries.some(organizationId, caseIds) : [];
    return new Map(found.map((c) => [c.id, c]));
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
    const idsOf = (types: string[]) => [...new Set(events.flatMap(({ by }) => (types.includes(by.type) && by.id !== undefined ? [by.id] : [])))];
    const userIds = idsOf(['user']);
    const [tokens, people] = await Promise.all([this.tokens.names(organizationId, idsOf(['api_token', 'admin_token'])), userIds.length ? this.directory.names(organizationId, userIds, []) : undefined]);
    const nameOf = (by: TimelineEvent['by']) => (by.id === undefined ? undefined : by.type === 'user' ? people?.users.get(by.id) : tokens.get(by.id));
    return {
      events: events.map(({ id, type, by, createdAt, data }) => {
        const name = nameOf(by);
        return { id, type, by: name === undefined ? by : { ...by, name }, at: createdAt.toISOString(), ...data };
      }),
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

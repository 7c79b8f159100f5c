import type { AttributesJson, CaseProps } from '../domain/case.js';
import type { RunState, TracedStep } from '../domain/run.js';
import type { CaseMatch, SearchTier } from '../domain/case-text-search.js';
import type { SlaFilter } from '../domain/case-service-levels.js';

/** The orders of the admin case list: by a key, ascending, or descending with `-`; ties by id, in the same direction. */
export const CASE_SORTS = ['-created_at', 'created_at', '-updated_at', 'updated_at', '-priority', 'priority', 'due_at', '-due_at'] as const;
export type CaseSortName = (typeof CASE_SORTS)[number];
/** Newest first: the only order the cases API's list has. */
export const DEFAULT_CASE_SORT: CaseSortName = '-created_at';

/**
 * Where a case sits in a list: the order's key (a time in microseconds since 1970, as Postgres
 * keeps it; a priority's rank, `low` 0 to `urgent` 3) and its id, both as decimal text.
 */
export interface ListPosition {
  sort: CaseSortName;
  value: string;
  id: string;
}

/**
 * Where a change sits in the feed: the id of the transaction that wrote it (xid8, as decimal
 * text) and the case's id. See docs/change-feed.md.
 */
export interface FeedPosition {
  xid: string;
  id: string;
}

/**
 * What a feed cursor holds: the position of the last change delivered, and how many purges of
 * the workflow its page saw (`purgesSeen`; purges are counted per workflow in commit order, so
 * every purge that page did not see has a higher number).
 */
export interface FeedCursor {
  after: FeedPosition;
  purgesSeen: string;
}

export interface CaseFilter {
  workflowId?: number;
  /** Any of these statuses. */
  statuses?: string[];
  mode?: string;
  source?: string;
  /** ISO 8601 timestamps, compared by Postgres (so to the microsecond); each bound excludes its own instant. */
  createdAfter?: string;
  createdBefore?: string;
  updatedAfter?: string;
  updatedBefore?: string;
  /** The text of a JSON object the case's attributes must contain (jsonb `@>`, nested objects too). */
  attributes?: AttributesJson;
  /** A user id, or `none`: the unassigned cases. */
  assignee?: number | 'none';
  teamId?: number;
  /** Any of these priorities. */
  priorities?: string[];
  /** Newest first when absent. */
  sort?: CaseSortName;
  /** Only the cases of this tier of a text search (`q`). */
  search?: SearchTier;
  /** Only cases this person (a user id) watches. */
  watchedBy?: number;
  /** Only cases with a clock in this state (sla.md section 2). */
  sla?: SlaFilter;
  /** Read each case's watcher count too (the admin list). */
  withWatchers?: boolean;
  limit: number;
  /** Cases after this position in the list's order (the previous page's last, read in that order). */
  after?: ListPosition;
}

export interface Positioned<P> {
  case: CaseProps;
  position: P;
}

/**
 * A page of the change feed: `expired` when a purge the cursor's page did not see deleted a
 * case whose last change lies beyond the cursor (then `changed` is empty); `purgesSeen` as in
 * FeedCursor, for this page.
 */
export interface FeedPage {
  expired: boolean;
  changed: Positioned<FeedPosition>[];
  purgesSeen: string;
}

/** A `case_events` row: `actor` is `api_token:<id>`, `user:<id>` (a person, through the admin API), `webhook`, `email`, `form`, `case_source:<source type>` (an extension's source), `automation` or `engine`. */
export interface StoredCaseEvent {
  id: number;
  type: string;
  actor: string;
  data: Record<string, unknown>;
  createdAt: Date;
}

/** A run of the case's automation with its trace (see Run.trace). */
export interface StoredRun {
  id: number;
  status: string;
  /** Which `on_sla` steps the run executes; null for a status's run. */
  onSla: 'warning' | 'breached' | null;
  workflowVersion: number;
  state: RunState;
  startedAt: Date | null;
  finishedAt: Date | null;
  error: string | null;
  steps: TracedStep[];
  stepsOmitted: number;
}

/** A file a case received, as sent. */
export interface StoredAttachment {
  filename: string | null;
  contentType: string;
  content: Buffer;
}

/** Read port: case lists, the change feed and timelines, always within one organization. */
export abstract class CaseQueries {
  /** Newest first, at most `filter.limit + 1` cases (the extra one says there is a next page). */
  abstract list(organizationId: number, filter: CaseFilter): Promise<Positioned<ListPosition>[]>;

  /** The ids of the list's first `filter.limit` cases, in its order: what a count or a bulk change reads, without the cases. */
  abstract ids(organizationId: number, filter: CaseFilter): Promise<number[]>;

  /**
   * The workflow's cases whose last change lies after the cursor (from the start when null) and
   * was written by a transaction older than every transaction still running, in feed order, at
   * most `limit`, each at its state now; all read in one snapshot with the purge horizon.
   */
  abstract changes(organizationId: number, workflowId: number, cursor: FeedCursor | null, limit: number): Promise<FeedPage>;

  /** With `watchers`, its watcher count too (the admin API). */
  abstract get(organizationId: number, caseId: number, watchers?: boolean): Promise<CaseProps | null>;

  /** The organization's cases among `caseIds` (another organization's are absent), in no particular order. */
  abstract some(organizationId: number, caseIds: readonly number[]): Promise<CaseProps[]>;

  /** One of the case's files; with `workflowId`, only when the case belongs to that workflow. */
  abstract attachment(organizationId: number, caseId: number, attachmentId: string, workflowId?: number): Promise<StoredAttachment | null>;

  /** Oldest first, the events after `afterId` (decimal text, '0' from the start), at most `limit`; null when the organization has no such case. */
  abstract timeline(organizationId: number, caseId: number, afterId: string, limit: number): Promise<StoredCaseEvent[] | null>;

  /** Oldest first, the case's runs after the run `afterId` (decimal text, '0' from the start), at most `limit`; null when the organization has no such case. */
  abstract runs(organizationId: number, caseId: number, afterId: string, limit: number): Promise<StoredRun[] | null>;
}

/**
 * A list filter as the HTTP layer has it: the cursor still opaque (already checked by the
 * request's validation to be a list's or a search's), and `q`, the text search, as sent.
 */
export type ListRequest = Omit<CaseFilter, 'after' | 'search'> & { cursor?: string; q?: string };
/** The list's filters alone, `q` among them: no page. */
export type ListFilterRequest = Omit<CaseFilter, 'after' | 'limit' | 'search'> & { q?: string };

export interface CasePage {
  cases: CaseProps[];
  nextCursor: string | null;
  /** With `q` on the admin list: where each case matched, by case id. */
  matches?: Map<number, CaseMatch>;
}

export interface TimelineEvent {
  id: number;
  type: string;
  by: { type: string; id?: number; name?: string; source_type?: string };
  at: string;
  [field: string]: unknown;
}

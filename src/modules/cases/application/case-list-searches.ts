import { InvalidQueryError, InvalidRequestError } from '../../../shared/errors/app-error.js';
import type { CaseTextSearches, PreparedSearch, SearchScope } from '../domain/case-text-search.js';
import { readSearchCursor, searchCursor, type SearchPosition } from './case-cursors.js';
import { type CasePage, type CaseQueries, DEFAULT_CASE_SORT, type ListFilterRequest, type ListPosition, type ListRequest, type Positioned } from './case-queries.js';

/**
 * The case lists with `q` (docs/search.md): by relevance tier, then newest first. The tiers are
 * read one after the other, each as an ordinary list read restricted to its tier, until enough
 * cases are found: the first page of a word most cases match costs one short index walk, like a
 * page without `q`. A position holds the tier of its case, so a page starts strictly after the
 * last one's case. The reads' share and charge are their caller's (CaseQueriesService).
 */
export class CaseListSearches {
  constructor(
    private readonly queries: CaseQueries,
    private readonly searches: CaseTextSearches,
  ) {}

  /** The page after the `cursor` of the page before; on the admin list with each case's match. */
  async page(organizationId: number, filter: Omit<ListRequest, 'cursor' | 'q'>, q: string, cursor: string | undefined, scope: SearchScope): Promise<CasePage> {
    const after = cursor === undefined ? undefined : readSearchCursor(cursor);
    if (cursor !== undefined && !after) throw cursorOfAnotherList();
    const prepared = await this.prepared(organizationId, filter, q, scope);
    const found = await this.rows(organizationId, filter, prepared, after, filter.limit);
    const page = found.slice(0, filter.limit);
    const cases = page.map((c) => c.case);
    return {
      cases,
      nextCursor: found.length > filter.limit ? searchCursor(page.at(-1)!.position) : null,
      matches: scope === 'admin' ? await this.searches.get().matches(organizationId, cases.map((c) => c.id), prepared) : undefined,
    };
  }

  /** The ids of the first `limit` cases the admin list finds for `q`. */
  async ids(organizationId: number, filter: ListFilterRequest, q: string, limit: number): Promise<number[]> {
    const ids: number[] = [];
    for (const tier of (await this.prepared(organizationId, filter, q, 'admin')).tiers) {
      if (ids.length >= limit) break;
      ids.push(...(await this.queries.ids(organizationId, { ...filter, search: tier, limit: limit - ids.length })));
    }
    return ids;
  }

  /** `q` ready to run in the list of `filter`: 422 for a `q` it cannot search, or an order other than relevance. */
  async prepared(organizationId: number, filter: ListFilterRequest, q: string, scope: SearchScope): Promise<PreparedSearch> {
    if ((filter.sort ?? DEFAULT_CASE_SORT) !== DEFAULT_CASE_SORT) throw new InvalidQueryError([{ path: '/sort', error: 'with q, cases come by relevance, then newest first: leave sort out' }]);
    const prepared = await this.searches.get().prepare(organizationId, q, scope);
    if (!isPrepared(prepared)) throw new InvalidQueryError([{ path: '/q', error: prepared.problem }]);
    return prepared;
  }

  /** Up to `limit` + 1 cases of the search's tiers after `after` (the one more tells a next page). */
  async rows(organizationId: number, filter: ListFilterRequest, search: PreparedSearch, after: SearchPosition | undefined, limit: number): Promise<Positioned<SearchPosition>[]> {
    const found: Positioned<SearchPosition>[] = [];
    for (const tier of search.tiers) {
      if (after && tier.rank > after.rank) continue;
      const wanted = limit + 1 - found.length;
      if (wanted <= 0) break;
      const rows = await this.queries.list(organizationId, { ...filter, search: tier, limit: wanted - 1, after: after?.rank === tier.rank ? after : undefined });
      found.push(...rows.map((row) => ({ case: row.case, position: withRank(row.position, tier.rank) })));
    }
    return found;
  }
}

/** Whether `q` searches anything: an empty or blank `q` is no filter. */
export function hasText(q: string | undefined): q is string {
  return q !== undefined && q.trim() !== '';
}

/** A list's cursor given with `q`, or a search's without: each only continues the order it came from. */
export function cursorOfAnotherList(): InvalidRequestError {
  return new InvalidQueryError([{ path: '/cursor', error: 'cursor must be the next_cursor of this list, with the same q (or without q)' }]);
}

function isPrepared(prepared: PreparedSearch | { problem: string }): prepared is PreparedSearch {
  return !('problem' in prepared);
}

function withRank(position: ListPosition, rank: number): SearchPosition {
  return { ...position, rank };
}

/**
 * The case lists' `q` (docs/search.md). The search module keeps the documents and registers the
 * search at start; the cases module runs it inside its list statements without naming the
 * search's tables, as with CaseStatementParts. `admin` searches everything; `api` (the cases API)
 * the subject and the attributes only.
 */
export type SearchScope = 'admin' | 'api';

/** Where the first matching text of a found case lies, with the matched words wrapped in `[[` `]]`. */
export interface CaseMatch {
  field: 'subject' | 'attributes' | 'email' | 'comment';
  pointer: string | null;
  snippet: string | null;
}

/**
 * One relevance tier of a search: the cases whose positive words match first in one field
 * (subject, then attributes, then messages and comments). Tiers are disjoint; a higher `rank`
 * comes first, and within a tier the list's newest-first order holds, so a page position is
 * (rank, created_at, id).
 */
export interface SearchTier {
  readonly rank: number;
  /** SQL condition on the row of `cases` (named `cases`), with its values bound through `param`. */
  condition(param: (value: unknown) => string): string;
}

/** A parsed `q`: its tiers in relevance order, and what the matches of a page need. */
export interface PreparedSearch {
  readonly tiers: readonly SearchTier[];
}

export interface CaseTextSearch {
  /** `q` ready to run in the organization's lists, or why it cannot be (a 422). */
  prepare(organizationId: number, q: string, scope: SearchScope): Promise<PreparedSearch | { problem: string }>;
  /** The match of each of these cases (a page's, found by `search`), by case id. */
  matches(organizationId: number, caseIds: readonly number[], search: PreparedSearch): Promise<Map<number, CaseMatch>>;
}

/** Holds the search the search module registered; lists with `q` fail without one. */
export class CaseTextSearches {
  private search?: CaseTextSearch;

  register(search: CaseTextSearch): void {
    if (this.search) throw new Error('a case text search is registered already');
    this.search = search;
  }

  get(): CaseTextSearch {
    if (!this.search) throw new Error('no case text search is registered (SearchModule missing)');
    return this.search;
  }
}

import { Injectable } from '@nestjs/common';
import type { CaseMatch, CaseTextSearch, PreparedSearch, SearchScope, SearchTier } from '../../cases/domain/case-text-search.js';
import { parseSearchQuery } from '../domain/search-query.js';
import { combineTermQueries, type SearchQueries, termInput } from '../domain/term-queries.js';
import { SearchReads } from './search.ports.js';

/** A search ready to run: its queries, and the scope it was made for. */
interface RunnableSearch extends PreparedSearch {
  readonly queries: SearchQueries | null;
  readonly scope: SearchScope;
}

/**
 * The case lists' `q` (docs/search.md): parsed here, made tsqueries by Postgres (every piece of
 * `q` only ever a bound parameter), run by the cases module's list statements tier by tier, and
 * the page's matches read from the documents.
 */
@Injectable()
export class CaseSearchService implements CaseTextSearch {
  constructor(private readonly reads: SearchReads) {}

  async prepare(organizationId: number, q: string, scope: SearchScope): Promise<PreparedSearch | { problem: string }> {
    const parsed = parseSearchQuery(q);
    if (!parsed.ok) return { problem: parsed.error };
    const inputs = parsed.terms.map(termInput);
    const printed = await this.reads.termQueries(inputs);
    const queries = combineTermQueries(printed.map((p, i) => ({ ...p, exclude: parsed.terms[i]!.exclude })));
    // Stop words only: nothing can match, so no tier is read.
    const tiers: SearchTier[] = queries ? this.reads.tiers(organizationId, queries, scope) : [];
    const search: RunnableSearch = { tiers, queries, scope };
    return search;
  }

  async matches(organizationId: number, caseIds: readonly number[], search: PreparedSearch): Promise<Map<number, CaseMatch>> {
    const { queries, scope } = search as RunnableSearch;
    const found = new Map<number, CaseMatch>();
    if (!queries) return found;
    for (const match of await this.reads.matches(organizationId, caseIds, queries, scope)) {
      found.set(match.caseId, { field: match.field, pointer: match.pointer, snippet: match.snippet });
    }
    return found;
  }
}

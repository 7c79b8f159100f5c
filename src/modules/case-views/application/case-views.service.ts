import { Injectable } from '@nestjs/common';
import { TransactionRunner } from '../../../shared/database/transaction.js';
import { ForbiddenError, InvalidRequestError, NotFoundError, RateLimitedError } from '../../../shared/errors/app-error.js';
import { roleAllows } from '../../../shared/http/roles.js';
import { AuditTrail } from '../../audit/application/audit-trail.js';
import type { ChangeAuthor } from '../../audit/domain/audit-entry.js';
import { CaseQueriesService, type ListFilterRequest } from '../../cases/application/case-queries.service.js';
import { bodyListFilters, callerUserId } from '../../cases/http/list-filters.js';
import { type Principal, roleOf } from '../../tokens/domain/principal.js';
import { type CaseView, type CaseViewChange, MAX_OWN_VIEWS, MAX_SHARED_VIEWS } from '../domain/case-view.js';
import { CaseViewStore } from './case-view-store.js';

/** Cases a view's count reads at most: beyond, the list of views says "more than". */
export const VIEW_COUNT_CAP = 10_000;

/** A view with its filters as checked by the case list's own validation. */
export interface CheckedFilters {
  query: Record<string, string>;
  filter: ListFilterRequest;
}

export interface CountedView {
  view: CaseView;
  /** null when the organization's list reads had no share left for it (docs/list-filters.md). */
  count: { count: number; capped: boolean } | null;
}

/**
 * Saved views (casework.md, section 5). A person sees their own and the shared ones; sharing
 * takes an admin; a shared view is changed by its owner or an admin, a private one by its owner
 * only (to anyone else it does not exist).
 */
@Injectable()
export class CaseViewsService {
  constructor(
    private readonly views: CaseViewStore,
    private readonly cases: CaseQueriesService,
    private readonly transactions: TransactionRunner,
    private readonly audit: AuditTrail,
  ) {}

  async create(caller: Principal, by: ChangeAuthor, input: { name: string; filters: CheckedFilters; columns: string[]; shared: boolean }): Promise<CaseView> {
    if (input.shared) mustShare(caller);
    const ownerId = ownerOf(caller);
    if (ownerId === null && !input.shared) throw new InvalidRequestError('invalid request body', [{ path: '/shared', error: 'a view saved with an admin token has no owner to keep it: it must be shared' }]);
    const organizationId = caller.organizationId;
    return this.transactions.run(async (tx) => {
      const held = await this.views.counts(tx, organizationId, ownerId);
      if (ownerId !== null && held.own >= MAX_OWN_VIEWS) throw new InvalidRequestError(`a person keeps at most ${MAX_OWN_VIEWS} views`);
      if (input.shared && held.shared >= MAX_SHARED_VIEWS) throw new InvalidRequestError(`an organization keeps at most ${MAX_SHARED_VIEWS} shared views`);
      const view = await this.views.create(tx, { organizationId, ownerId, name: input.name, filters: input.filters.query, columns: input.columns, shared: input.shared });
      await this.audit.record(tx, { organizationId, by, action: 'case_view.created', target: { type: 'case_view', id: String(view.id) }, summary: { name: view.name, shared: view.shared } });
      return view;
    });
  }

  /**
   * The caller's views and the shared ones, each with how many cases its filters match now
   * (up to VIEW_COUNT_CAP), read one after the other as list reads of the organization: once
   * its share of them is spent, the remaining views come without a count.
   */
  async list(caller: Principal): Promise<CountedView[]> {
    const views = await this.views.visible(caller.organizationId, ownerOf(caller));
    const counted: CountedView[] = [];
    let refused = false;
    for (const view of views) {
      let count: CountedView['count'] = null;
      if (!refused) {
        try {
          count = await this.cases.countUpTo(caller.organizationId, await storedFilter(view, caller), VIEW_COUNT_CAP);
        } catch (err) {
          // A view saved under an older list whose filters it no longer takes shows without a count.
          if (err instanceof RateLimitedError) refused = true;
          else if (!(err instanceof InvalidRequestError)) throw err;
        }
      }
      counted.push({ view, count });
    }
    return counted;
  }

  async update(caller: Principal, by: ChangeAuthor, id: number, change: Omit<CaseViewChange, 'filters'> & { filters?: CheckedFilters }): Promise<CaseView> {
    const organizationId = caller.organizationId;
    return this.transactions.run(async (tx) => {
      const view = await this.changeable(await this.views.find(tx, organizationId, id), caller);
      if (change.shared === true && !view.shared) {
        mustShare(caller);
        if ((await this.views.counts(tx, organizationId, view.ownerId)).shared >= MAX_SHARED_VIEWS) throw new InvalidRequestError(`an organization keeps at most ${MAX_SHARED_VIEWS} shared views`);
      }
      if (change.shared === false && view.ownerId === null) throw new InvalidRequestError('invalid request body', [{ path: '/shared', error: 'this view has no owner to keep it: it stays shared' }]);
      const updated = await this.views.update(tx, organizationId, id, { ...change, filters: change.filters?.query });
      const changed = Object.keys(change).filter((key) => change[key as keyof typeof change] !== undefined);
      await this.audit.record(tx, { organizationId, by, action: 'case_view.changed', target: { type: 'case_view', id: String(id) }, summary: { changed, shared: updated.shared } });
      return updated;
    });
  }

  async delete(caller: Principal, by: ChangeAuthor, id: number): Promise<void> {
    const organizationId = caller.organizationId;
    await this.transactions.run(async (tx) => {
      const view = await this.changeable(await this.views.find(tx, organizationId, id), caller);
      await this.views.delete(tx, organizationId, id);
      await this.audit.record(tx, { organizationId, by, action: 'case_view.deleted', target: { type: 'case_view', id: String(id) }, summary: { name: view.name } });
    });
  }

  private async changeable(view: CaseView | null, caller: Principal): Promise<CaseView> {
    const own = view !== null && view.ownerId !== null && view.ownerId === ownerOf(caller);
    if (!view || (!view.shared && !own)) throw new NotFoundError('view');
    if (!own) mustShare(caller);
    return view;
  }
}

/** The person a view belongs to; none for an admin token. */
function ownerOf(caller: Principal): number | null {
  return caller.kind === 'user' ? caller.userId : null;
}

function mustShare(caller: Principal): void {
  const role = roleOf(caller);
  if (!role || !roleAllows(role, 'admin')) throw new ForbiddenError('shared views are saved and changed by admins');
}

/**
 * A stored view's filters as the list takes them for `caller` (`assignee=me` is whoever looks),
 * read by the list's own code (they passed its validation when saved).
 */
async function storedFilter(view: CaseView, caller: Principal): Promise<ListFilterRequest> {
  return (await bodyListFilters(view.filters, '/filters', callerUserId(caller))).filter;
}

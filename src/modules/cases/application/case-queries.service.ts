import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../../../shared/errors/app-error.js';
import type { CaseProps } from '../domain/case.js';
import { type CaseFilter, CaseQueries } from './case-queries.js';

export interface TimelineEvent {
  id: number;
  type: string;
  by: { type: string; id?: number };
  at: string;
  [field: string]: unknown;
}

/** Read side for admins: the case list and a case's timeline, always within one organization. */
@Injectable()
export class CaseQueriesService {
  constructor(private readonly queries: CaseQueries) {}

  /** Newest first, keyset-paginated on the id (stable under concurrent inserts). */
  async list(organizationId: number, filter: CaseFilter): Promise<{ cases: CaseProps[]; nextCursor: number | null }> {
    const found = await this.queries.list(organizationId, filter);
    const page = found.slice(0, filter.limit);
    return { cases: page, nextCursor: found.length > filter.limit ? page[page.length - 1]!.id : null };
  }

  /** One case of the organization, whatever its workflow. */
  async get(organizationId: number, caseId: number): Promise<CaseProps> {
    const found = await this.queries.get(organizationId, caseId);
    if (!found) throw new NotFoundError('case');
    return found;
  }

  /** Oldest first: creation, status changes, runs and their steps. */
  async timeline(organizationId: number, caseId: number): Promise<TimelineEvent[]> {
    const events = await this.queries.timeline(organizationId, caseId);
    if (!events) throw new NotFoundError('case');
    return events.map((event) => ({ id: event.id, type: event.type, by: actorView(event.actor), at: event.createdAt.toISOString(), ...event.data }));
  }
}

function actorView(actor: string): TimelineEvent['by'] {
  const [type, id] = actor.split(':');
  return id === undefined ? { type: type! } : { type: type!, id: Number(id) };
}

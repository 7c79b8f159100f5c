import type { CaseProps } from '../domain/case.js';

export interface CaseFilter {
  workflowId?: number;
  status?: string;
  mode?: string;
  source?: string;
  limit: number;
  /** Cases with a smaller id than this (the previous page's last). */
  before?: number;
}

/** A `case_events` row: `actor` is `api_token:<id>`, `webhook`, `automation` or `engine`. */
export interface StoredCaseEvent {
  id: number;
  type: string;
  actor: string;
  data: Record<string, unknown>;
  createdAt: Date;
}

/** Read port for admins: cases and timelines, always within one organization. */
export abstract class CaseQueries {
  /** Newest first, at most `filter.limit + 1` cases (the extra one says there is a next page). */
  abstract list(organizationId: number, filter: CaseFilter): Promise<CaseProps[]>;

  abstract get(organizationId: number, caseId: number): Promise<CaseProps | null>;

  /** Oldest first; null when the organization has no such case. */
  abstract timeline(organizationId: number, caseId: number): Promise<StoredCaseEvent[] | null>;
}

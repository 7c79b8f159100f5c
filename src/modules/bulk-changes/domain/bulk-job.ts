import type { ChangeAuthor } from '../../audit/domain/audit-entry.js';
import type { Priority } from '../../cases/domain/case-work.js';

/** What a bulk job changes on each case (casework.md, section 6): any of a case PATCH's fields but `attributes`. */
export interface BulkChange {
  status?: string;
  assignee_id?: number | null;
  team_id?: number | null;
  priority?: Priority;
}

export const BULK_CHANGE_KEYS = ['status', 'assignee_id', 'team_id', 'priority'] as const;

/** The most cases one job changes: beyond, the request is refused (422) before anything is stored. */
export const MAX_BULK_CASES = 10_000;
/** Jobs an organization may have queued or running at once: each holds a worker while it runs. */
export const MAX_UNFINISHED_BULK_JOBS = 5;

export type BulkJobState = 'queued' | 'running' | 'finished';

export interface BulkJob {
  organizationId: number;
  id: number;
  change: BulkChange;
  /** Who asked, from where: each case's change is theirs (timeline, audit). */
  requestedBy: ChangeAuthor;
  total: number;
  done: number;
  failed: number;
  state: BulkJobState;
  createdAt: Date;
  finishedAt: Date | null;
}

/** A job as a worker holds it: `attempt` is its claim, which its lease renewals name. */
export interface ClaimedBulkJob {
  organizationId: number;
  id: number;
  attempt: number;
  change: BulkChange;
  requestedBy: ChangeAuthor;
}

/** What became of one case: null when it changed, else why it could not. */
export interface CaseOutcome {
  caseId: number;
  failure: string | null;
}

export interface BulkFailure {
  caseId: number;
  reason: string;
}

/*
 * The casework API (casework.md sections 2-6) as the dashboard uses it: hand-written shapes
 * for routes that are not in the generated api-schema.generated.ts yet. When the service's
 * OpenAPI document has them, these types give way to the generated ones (and `canWorkCases`
 * to `can(<operation id>)`); the calls below stay.
 */
import { api, ApiError, query, type Case } from './api.ts';
import { currentSession, ROLES, type Role } from './session.ts';

export const PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export type Priority = (typeof PRIORITIES)[number];

export interface PersonRef {
  id: number;
  email: string;
}

export interface TeamRef {
  id: number;
  name: string;
}

/**
 * The admin case with what casework adds to it (section 2). The added fields are optional
 * here only because a service without casework leaves them out: the page offers the controls
 * that change them only when the case carries them.
 */
export type WorkedCase = Case & {
  assignee?: PersonRef | null;
  team?: TeamRef | null;
  priority?: Priority;
  /** How many people watch it (the assignee always counts). */
  watchers?: number;
};

export interface Team {
  id: number;
  name: string;
  member_ids: number[];
  created_at: string;
}

export type Visibility = 'internal' | 'public';

export interface CaseComment {
  id: number;
  author: PersonRef;
  visibility: Visibility;
  body: string;
  created_at: string;
  delivery: null | { to: string[]; status: 'queued' | 'sent' | 'failed' };
}

export interface CommentPage {
  comments: CaseComment[];
  next_cursor: string | null;
}

export const LINK_TYPES = ['relates', 'duplicates', 'blocks'] as const;
export type LinkType = (typeof LINK_TYPES)[number];

export interface CaseLink {
  id: number;
  /** The other case. */
  case_id: number;
  type: LinkType;
  /** Whether this case made the link or the other one did (the list shows both). */
  direction?: 'outgoing' | 'incoming';
}

/** The case list's parameters a view keeps and a bulk change or an export takes (section 5). */
export type ListFilters = Record<string, string>;

export interface SavedView {
  id: number;
  name: string;
  filters: ListFilters;
  columns: string[];
  shared: boolean;
  /** How many cases it holds now. */
  count: number;
}

export interface BulkJob {
  id: number;
  total: number;
  done: number;
  failed: number;
  state: string;
}

export type CaseChange = Partial<{ assignee_id: number | null; team_id: number | null; priority: Priority; status: string; attributes: Record<string, unknown> }>;

/** Whether the signed-in caller's role is `role` or a stronger one. */
export function atLeast(role: Role): boolean {
  const session = currentSession();
  if (session.kind !== 'person' && session.kind !== 'token') return false;
  return ROLES.indexOf(session.role) >= ROLES.indexOf(role);
}

/** Whether the signed-in caller works cases (the agent role or a stronger one, casework.md section 1). */
export const canWorkCases = () => atLeast('agent');

/** A person signed in (not an admin token): "me" means someone, so cases can be theirs and watched by them. */
export function signedInPerson(): { id: number; email: string } | null {
  const session = currentSession();
  return session.kind === 'person' ? { id: session.userId, email: session.email } : null;
}

let caseworkSeen = false;

/**
 * Whether this service works cases (casework.md sections 2-6), as its answers show: an admin
 * case carrying `priority`, or a list that took a casework parameter. Until one has shown it,
 * the pages ask for none of casework's routes, so a service without them is never asked for
 * one (a 404 the browser would log on every page).
 */
export function caseworkServed(cases: readonly WorkedCase[] = []): boolean {
  if (cases.some((c) => c.priority !== undefined)) caseworkSeen = true;
  return caseworkSeen;
}

/** The list took one of casework's parameters: the service has them. */
export function caseworkParametersTaken(): void {
  caseworkSeen = true;
}

/** A refusal saying the service has no such route: the feature is absent, which a page shows as such rather than as a failure. */
function isAbsent(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 405);
}

/** `null` when the route is absent; any other failure is thrown. */
export async function orAbsent<T>(load: Promise<T>): Promise<T | null> {
  try {
    return await load;
  } catch (failure) {
    if (isAbsent(failure)) return null;
    throw failure;
  }
}

export const casework = {
  change: (caseId: number, change: CaseChange) => api.patch<{ case: WorkedCase }>(`/cases/${caseId}`, { body: change }).then((r) => r.case),
  teams: () => orAbsent(api.get<{ teams: Team[] }>('/teams').then((r) => r.teams)),
  comments: (caseId: number, after?: string) => api.get<CommentPage>(`/cases/${caseId}/comments${query({ after })}`),
  comment: (caseId: number, body: string, visibility: Visibility) => api.post<{ comment: CaseComment }>(`/cases/${caseId}/comments`, { body: { body, visibility } }).then((r) => r.comment),
  watch: (caseId: number) => api.put<void>(`/cases/${caseId}/watchers/me`),
  unwatch: (caseId: number) => api.delete(`/cases/${caseId}/watchers/me`),
  merge: (caseId: number, into: number) => api.post<{ case: WorkedCase }>(`/cases/${caseId}/merge`, { body: { into } }).then((r) => r.case),
  links: (caseId: number) => orAbsent(api.get<{ links: CaseLink[] }>(`/cases/${caseId}/links`).then((r) => r.links)),
  link: (caseId: number, otherId: number, type: LinkType) => api.post<{ link: CaseLink }>(`/cases/${caseId}/links`, { body: { case_id: otherId, type } }),
  unlink: (caseId: number, linkId: number) => api.delete(`/cases/${caseId}/links/${linkId}`),
  views: () => orAbsent(api.get<{ views: SavedView[] }>('/views').then((r) => r.views)),
  saveView: (name: string, filters: ListFilters, shared: boolean) => api.post<{ view: SavedView }>('/views', { body: { name, filters, columns: [], shared } }).then((r) => r.view),
  bulk: (caseIds: number[], change: CaseChange) => api.post<{ job: BulkJob }>('/cases/bulk', { body: { case_ids: caseIds, change } }).then((r) => r.job),
  job: (id: number) => api.get<{ job: BulkJob }>(`/jobs/${id}`).then((r) => r.job),
};

/** The export's address with the list's filters: a plain link, so the browser streams the file to disk (a session's cookie goes with it). */
export function exportUrl(filters: ListFilters): string {
  return `/api/admin/v1/cases/export.csv${query(filters)}`;
}

/** A job is over once every case is counted (changed or failed), or the service gave up on it. */
export function jobFinished(job: BulkJob): boolean {
  return job.done + job.failed >= job.total || job.state === 'failed';
}

/*
 * The casework API (casework.md sections 2-6) as the dashboard uses it, with the shapes of the
 * service's OpenAPI document (api-schema.generated.ts).
 */
import { api, query, type Case, type Schemas } from './api.ts';
import { currentSession } from './session.ts';

export const PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const satisfies readonly Case['priority'][];
export type Priority = Case['priority'];

export type PersonRef = NonNullable<Case['assignee']>;
export type Team = Schemas['Team'];
export type CaseComment = Schemas['Comment'];
export type Visibility = CaseComment['visibility'];
export type CaseLink = Schemas['CaseLink'];
export type LinkType = CaseLink['type'];
export const LINK_TYPES = ['relates', 'duplicates', 'blocks'] as const satisfies readonly LinkType[];
export type SavedView = Schemas['CountedCaseView'];
export type BulkJob = Schemas['BulkJob'];
export type CaseChange = Schemas['WorkCaseRequest'];

/** The case list's parameters a view keeps and a bulk change or an export takes (section 5). */
export type ListFilters = Record<string, string>;

/** A person signed in (not an admin token): "me" means someone, so cases can be theirs and watched by them. */
export function signedInPerson(): PersonRef | null {
  const session = currentSession();
  return session.kind === 'person' ? { id: session.userId, email: session.email } : null;
}

export const casework = {
  change: (caseId: number, change: CaseChange) => api.patch<{ case: Case }>(`/cases/${caseId}`, { body: change }).then((r) => r.case),
  teams: () => api.get<{ teams: Team[] }>('/teams').then((r) => r.teams),
  comments: (caseId: number, after?: string) => api.get<{ comments: CaseComment[]; next_cursor: string | null }>(`/cases/${caseId}/comments${query({ after })}`),
  comment: (caseId: number, body: string, visibility: Visibility) => api.post<{ comment: CaseComment }>(`/cases/${caseId}/comments`, { body: { body, visibility } }).then((r) => r.comment),
  watch: (caseId: number) => api.put<void>(`/cases/${caseId}/watchers/me`),
  unwatch: (caseId: number) => api.delete(`/cases/${caseId}/watchers/me`),
  merge: (caseId: number, into: number) => api.post<{ case: Case }>(`/cases/${caseId}/merge`, { body: { into } }).then((r) => r.case),
  links: (caseId: number) => api.get<{ links: CaseLink[] }>(`/cases/${caseId}/links`).then((r) => r.links),
  link: (caseId: number, otherId: number, type: LinkType) => api.post<{ link: CaseLink }>(`/cases/${caseId}/links`, { body: { case_id: otherId, type } }),
  unlink: (caseId: number, linkId: number) => api.delete(`/cases/${caseId}/links/${linkId}`),
  views: () => api.get<{ views: SavedView[] }>('/views').then((r) => r.views),
  saveView: (name: string, filters: ListFilters, shared: boolean) => api.post<{ view: Schemas['CaseView'] }>('/views', { body: { name, filters, shared } }).then((r) => r.view),
  bulk: (caseIds: number[], change: CaseChange) => api.post<{ job: BulkJob }>('/cases/bulk', { body: { case_ids: caseIds, change } }).then((r) => r.job),
  job: (id: number) => api.get<{ job: BulkJob }>(`/jobs/${id}`).then((r) => r.job),
};

/** The export's address with the list's filters: a plain link, so the browser streams the file to disk (a session's cookie goes with it). */
export function exportUrl(filters: ListFilters): string {
  return `/api/admin/v1/cases/export.csv${query(filters)}`;
}

/** A job is over once the service says so. */
export function jobFinished(job: BulkJob): boolean {
  return job.state === 'finished';
}

import type { CaseProps } from '../domain/case.js';
import type { StoredRun } from '../application/case-queries.js';
import type { WorkedCase } from '../application/case-work.service.js';
import type { CaseMatch } from '../domain/case-text-search.js';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * A case as the cases API shows it, as JSON text. The fields are listed one by one so a new
 * column never leaks; `attributes` is spliced in as the exact text Postgres returned, never
 * re-serialised through JavaScript numbers.
 */
export function caseJson(c: CaseProps, withSource = false): string {
  const fields = JSON.stringify({
    id: c.id,
    workflow_id: c.workflowId,
    subject: c.subject,
    status: c.status,
    outcome: c.outcome,
    mode: c.mode,
    ...(withSource ? { source_type: c.source } : {}),
    ...(withSource && c.watchers !== undefined ? { watchers: c.watchers } : {}),
  });
  return `${fields.slice(0, -1)},"attributes":${c.attributes},"created_at":"${c.createdAt.toISOString()}","updated_at":"${c.updatedAt.toISOString()}"}`;
}

export function caseResponse(c: CaseProps): string {
  return `{"case":${caseJson(c)}}`;
}

/** A case as the admin API shows it: the cases API's, with its source and who works it (and its SLA clocks, when read). */
export function adminCaseJson({ case: c, assignment, sla }: WorkedCase): string {
  const work = JSON.stringify({ assignee: assignment.assignee, team: assignment.team, priority: c.priority, ...(sla ? { sla } : {}) });
  return `${caseJson(c, true).slice(0, -1)},${work.slice(1)}`;
}

/**
 * A page of the admin list. A text search adds each case's `match` (null when no single value
 * holds a matched word, as a phrase found across two values).
 */
export function adminCasePageJson(page: { cases: WorkedCase[]; nextCursor: string | null; matches?: Map<number, CaseMatch> }): string {
  const matches = page.matches;
  const json = (worked: WorkedCase) => (matches ? `${adminCaseJson(worked).slice(0, -1)},"match":${JSON.stringify(matches.get(worked.case.id) ?? null)}}` : adminCaseJson(worked));
  return `{"cases":[${page.cases.map(json).join(',')}],"next_cursor":${JSON.stringify(page.nextCursor)}}`;
}

/** A page of cases: `next_cursor` is null only on a list's last page. */
export function casePageJson(page: { cases: CaseProps[]; nextCursor: string | null }): string {
  return `{"cases":[${page.cases.map((c) => caseJson(c)).join(',')}],"next_cursor":${JSON.stringify(page.nextCursor)}}`;
}

/** A run with its trace as the admin API shows it; the steps are stored in their shown form (see TracedStep). */
export function runJson(run: StoredRun): Record<string, unknown> {
  return {
    id: run.id,
    status_at_start: run.status,
    on_sla: run.onSla,
    workflow_version: run.workflowVersion,
    state: run.state,
    started_at: run.startedAt?.toISOString() ?? null,
    finished_at: run.finishedAt?.toISOString() ?? null,
    error: run.error,
    steps: run.steps,
    steps_omitted: run.stepsOmitted,
  };
}

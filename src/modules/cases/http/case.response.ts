import type { CaseProps } from '../domain/case.js';
import type { StoredRun } from '../application/case-queries.js';

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

/** A page of cases: `next_cursor` is null only on a list's last page. */
export function casePageJson(page: { cases: CaseProps[]; nextCursor: string | null }, withSource = false): string {
  return `{"cases":[${page.cases.map((c) => caseJson(c, withSource)).join(',')}],"next_cursor":${JSON.stringify(page.nextCursor)}}`;
}

/** A run with its trace as the admin API shows it; the steps are stored in their shown form (see TracedStep). */
export function runJson(run: StoredRun): Record<string, unknown> {
  return {
    id: run.id,
    status_at_start: run.status,
    workflow_version: run.workflowVersion,
    state: run.state,
    started_at: run.startedAt?.toISOString() ?? null,
    finished_at: run.finishedAt?.toISOString() ?? null,
    error: run.error,
    steps: run.steps,
    steps_omitted: run.stepsOmitted,
  };
}

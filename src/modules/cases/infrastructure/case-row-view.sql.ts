import type { CaseRowView } from '../domain/case-statement-parts.js';

/** The view of `cases` row `alias` (of `cte`, the table itself when not given) that the statement parts read. */
export function caseRowView(alias: string, cte = 'cases'): CaseRowView {
  return {
    from: `${cte} ${alias}`,
    id: `${alias}.id`,
    organizationId: `${alias}.organization_id`,
    workflowId: `${alias}.workflow_id`,
    status: `${alias}.status`,
    source: `${alias}.source`,
    createdAt: `${alias}.created_at`,
    isLive: `${alias}.mode = 'live'`,
    payload: casePayloadSql(alias),
  };
}

/**
 * The case as the cases API shows it, built from the row `c` in the statement that changed it:
 * what subscribers and case-event listeners receive, so both tell the case as it was right
 * after the change whatever happens to it later.
 */
function casePayloadSql(c: string): string {
  return `jsonb_build_object(
               'id', ${c}.id, 'workflow_id', ${c}.workflow_id, 'subject', ${c}.subject, 'status', ${c}.status,
               'outcome', ${c}.outcome, 'mode', ${c}.mode, 'attributes', ${c}.attributes,
               'created_at', to_char(${c}.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
               'updated_at', to_char(${c}.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))`;
}

/**
 * The case as the cases API shows it, built from the row `c` in the statement that changed it:
 * what subscribers and case-event listeners receive, so both tell the case as it was right
 * after the change whatever happens to it later.
 */
export function casePayloadSql(c: string): string {
  return `jsonb_build_object(
               'id', ${c}.id, 'workflow_id', ${c}.workflow_id, 'subject', ${c}.subject, 'status', ${c}.status,
               'outcome', ${c}.outcome, 'mode', ${c}.mode, 'attributes', ${c}.attributes,
               'created_at', to_char(${c}.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
               'updated_at', to_char(${c}.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))`;
}

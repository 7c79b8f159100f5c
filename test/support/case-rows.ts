/**
 * "Nothing is stored" (builder.md §2): the rows of every table that a case, its runs, timeline,
 * usage, events, deliveries and report figures would leave (of the cases, subscriptions,
 * reporting and case-events modules' tables, their infrastructure/persistence.ts), counted to compare before and after.
 */
import type pg from 'pg';

export const CASE_TABLES = [
  'cases', 'case_events', 'case_attachments', 'case_message_ids', 'idempotency_keys', 'webhook_dedup_keys', 'workflow_runs', 'usage_rollups',
  'outbox_events', 'event_deliveries', 'delivery_attempts',
  'report_changes', 'case_report_hours', 'case_report_days', 'case_close_times', 'case_error_messages', 'case_open_counts',
  'case_event_handlings',
];

export async function caseRowCounts(pool: pg.Pool): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of CASE_TABLES) counts[table] = Number((await pool.query(`SELECT count(*) AS n FROM ${table}`)).rows[0].n);
  return counts;
}

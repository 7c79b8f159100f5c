import { modulePersistence } from '../../../shared/database/module-persistence.js';
import { column, type Statement, table } from '../../../shared/database/typed-statement.js';
import type { ScheduledDigest } from '../domain/digest.js';

/**
 * The reporting module's tables, each row as the migrations made it
 * (test/integration/table-definitions.integration-spec.ts), and what declares and runs its
 * statements: no other module's persistence runs them, and no other module may import this file.
 */

export const REPORT_CHANGES = table('report_changes', {
  organization_id: column.int8,
  workflow_id: column.int8,
  at: column.timestamptz,
  source: column.text,
  created: column.int2,
  closed: column.int2,
  errored: column.int2,
  reopened: column.int2,
  close_bucket: column.nullable(column.int2),
  status_from: column.nullable(column.text),
  status_to: column.nullable(column.text),
  error: column.nullable(column.text),
});

export const CASE_REPORT_HOURS = table('case_report_hours', {
  organization_id: column.int8,
  hour: column.timestamptz,
  workflow_id: column.int8,
  created_api: column.int4,
  created_webhook: column.int4,
  created_email: column.int4,
  created_form: column.int4,
  closed: column.int4,
  errored: column.int4,
  reopened: column.int4,
  created_extension: column.int4,
});

export const CASE_REPORT_DAYS = table('case_report_days', {
  organization_id: column.int8,
  day_start: column.timestamptz,
  start_hour: column.int2,
  workflow_id: column.int8,
  created_api: column.int4,
  created_webhook: column.int4,
  created_email: column.int4,
  created_form: column.int4,
  closed: column.int4,
  errored: column.int4,
  reopened: column.int4,
  created_extension: column.int4,
});

export const CASE_CLOSE_TIMES = table('case_close_times', {
  organization_id: column.int8,
  grain: column.text,
  period: column.timestamptz,
  workflow_id: column.int8,
  bucket: column.int2,
  cases: column.int4,
});

export const CASE_ERROR_MESSAGES = table('case_error_messages', {
  organization_id: column.int8,
  grain: column.text,
  period: column.timestamptz,
  workflow_id: column.int8,
  message: column.text,
  failures: column.int4,
});

export const CASE_OPEN_COUNTS = table('case_open_counts', {
  organization_id: column.int8,
  workflow_id: column.int8,
  status: column.text,
  cases: column.int4,
});

export const DIGESTS = table('digests', {
  id: column.int8,
  organization_id: column.int8,
  schedule: column.textOf<ScheduledDigest['schedule']>(),
  hour_utc: column.int2,
  weekday: column.nullable(column.int2),
  recipients: column.textArray,
  workflow_ids: column.nullable(column.int8Array),
  created_at: column.timestamptz,
  last_sent_at: column.nullable(column.timestamptz),
  last_failed_at: column.nullable(column.timestamptz),
  last_error: column.nullable(column.text),
  manual_send_at: column.nullable(column.timestamptz),
});

export const DIGEST_RECIPIENTS = table('digest_recipients', {
  id: column.int8,
  organization_id: column.int8,
  address: column.text,
  token_hash: column.nullable(column.bytea),
  token_ciphertext: column.nullable(column.text),
  confirmed_at: column.nullable(column.timestamptz),
  unsubscribed_at: column.nullable(column.timestamptz),
  invited_at: column.timestamptz,
  invitation_state: column.text,
  invitation_claimed_at: column.nullable(column.timestamptz),
  invitation_attempts: column.int4,
  invitation_error: column.nullable(column.text),
  unsubscribe_token_hash: column.nullable(column.bytea),
  unsubscribe_token_ciphertext: column.nullable(column.text),
});

export const DIGEST_SENDS = table('digest_sends', {
  id: column.int8,
  digest_id: column.int8,
  kind: column.text,
  period_start: column.timestamptz,
  period_end: column.timestamptz,
  state: column.text,
  claimed_at: column.nullable(column.timestamptz),
  attempts: column.int4,
  delivered_to: column.int8Array,
  last_error: column.nullable(column.text),
  sent_at: column.nullable(column.timestamptz),
});

const persistence = modulePersistence('src/modules/reporting', [
  REPORT_CHANGES, CASE_REPORT_HOURS, CASE_REPORT_DAYS, CASE_CLOSE_TIMES, CASE_ERROR_MESSAGES, CASE_OPEN_COUNTS, DIGESTS, DIGEST_RECIPIENTS, DIGEST_SENDS,
]);

export const { statement, statementBuilder, rowsOf, firstRowOf, prepared, rowsIn } = persistence;

/** A statement of this module's: only its runners take it. */
export type ReportingStatement<Row> = Statement<Row, typeof persistence.module>;

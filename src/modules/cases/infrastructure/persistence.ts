import { modulePersistence } from '../../../shared/database/module-persistence.js';
import { column, type Statement, table } from '../../../shared/database/typed-statement.js';
import type { CaseProps } from '../domain/case.js';

/**
 * The cases module's tables, each row as the migrations made it
 * (test/integration/table-definitions.integration-spec.ts), and what declares and runs its
 * statements: no other module's persistence runs them, and no other module may import this file.
 */

export const CASES = table('cases', {
  id: column.int8,
  organization_id: column.int8,
  workflow_id: column.int8,
  workflow_version: column.int4,
  subject: column.text,
  status: column.text,
  outcome: column.nullable(column.text),
  mode: column.textOf<CaseProps['mode']>(),
  source: column.textOf<CaseProps['source']>(),
  attributes: column.jsonb(),
  created_at: column.timestamptz,
  updated_at: column.timestamptz,
  change_xid: column.xid8,
  priority: column.textOf<CaseProps['priority']>(),
  assignee_id: column.nullable(column.int8),
  team_id: column.nullable(column.int8),
});

export const CASE_EVENTS = table('case_events', {
  id: column.int8,
  case_id: column.int8,
  type: column.text,
  actor: column.text,
  data: column.jsonb(),
  created_at: column.timestamptz,
  organization_id: column.int8,
});

export const CASE_ATTACHMENTS = table('case_attachments', {
  id: column.uuid,
  case_id: column.int8,
  filename: column.nullable(column.text),
  content_type: column.text,
  size: column.int4,
  sha256: column.bytea,
  content: column.bytea,
  created_at: column.timestamptz,
});

export const CASE_MESSAGE_IDS = table('case_message_ids', {
  workflow_id: column.int8,
  message_id: column.text,
  case_id: column.int8,
});

export const CASE_FEED_PURGES = table('case_feed_purges', {
  workflow_id: column.int8,
  purge_xid: column.xid8,
  change_xid: column.xid8,
  case_id: column.int8,
  purge: column.int8,
});

export const CASE_FEED_PURGE_COUNTS = table('case_feed_purge_counts', {
  organization_id: column.int8,
  workflow_id: column.int8,
  purges: column.int8,
});

export const IDEMPOTENCY_KEYS = table('idempotency_keys', {
  organization_id: column.int8,
  key: column.text,
  request_hash: column.bytea,
  case_id: column.int8,
  created_at: column.timestamptz,
});

export const WEBHOOK_DEDUP_KEYS = table('webhook_dedup_keys', {
  workflow_id: column.int8,
  key_hash: column.bytea,
  case_id: column.int8,
  created_at: column.timestamptz,
});

export const WORKFLOW_RUNS = table('workflow_runs', {
  id: column.int8,
  case_id: column.int8,
  organization_id: column.int8,
  workflow_id: column.int8,
  workflow_version: column.int4,
  status: column.text,
  mode: column.text,
  chain_depth: column.int4,
  state: column.text,
  current_step: column.int4,
  step_attempts: column.int4,
  attempts: column.int4,
  error: column.nullable(column.text),
  locked_until: column.nullable(column.timestamptz),
  resume_at: column.nullable(column.timestamptz),
  enqueued_at: column.nullable(column.timestamptz),
  created_at: column.timestamptz,
  started_at: column.nullable(column.timestamptz),
  finished_at: column.nullable(column.timestamptz),
  steps: column.jsonb(),
  steps_omitted: column.int4,
  on_sla: column.nullable(column.text),
});

export const USAGE_ROLLUPS = table('usage_rollups', {
  organization_id: column.int8,
  hour: column.timestamptz,
  workflow_id: column.int8,
  mode: column.text,
  cases: column.int8,
  runs: column.int8,
});

export const CASE_MERGES = table('case_merges', {
  organization_id: column.int8,
  merged_case_id: column.int8,
  into_case_id: column.int8,
  merged_at: column.timestamptz,
});

const persistence = modulePersistence('src/modules/cases', [
  CASES, CASE_EVENTS, CASE_ATTACHMENTS, CASE_MESSAGE_IDS, CASE_FEED_PURGES, CASE_FEED_PURGE_COUNTS, IDEMPOTENCY_KEYS, WEBHOOK_DEDUP_KEYS, WORKFLOW_RUNS, USAGE_ROLLUPS, CASE_MERGES,
]);

export const { statement, statementBuilder, rowsOf, firstRowOf, prepared, rowsIn } = persistence;

/** A statement of this module's: only its runners take it. */
export type CasesStatement<Row> = Statement<Row, typeof persistence.module>;

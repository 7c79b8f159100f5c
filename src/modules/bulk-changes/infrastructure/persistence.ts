import { modulePersistence } from '../../../shared/database/module-persistence.js';
import { column, table } from '../../../shared/database/typed-statement.js';

/**
 * The bulk-changes module's tables, each row as the migrations made it
 * (test/integration/table-definitions.integration-spec.ts), and what declares and runs its
 * statements: no other module's persistence runs them, and no other module may import this file.
 */

export const BULK_JOBS = table('bulk_jobs', {
  organization_id: column.int8,
  id: column.int8,
  change: column.jsonb(),
  requested_by: column.jsonb(),
  total: column.int4,
  done: column.int4,
  failed: column.int4,
  state: column.text,
  attempts: column.int4,
  created_at: column.timestamptz,
  finished_at: column.nullable(column.timestamptz),
  enqueued_at: column.nullable(column.timestamptz),
  locked_until: column.nullable(column.timestamptz),
});

export const BULK_JOB_CASES = table('bulk_job_cases', {
  organization_id: column.int8,
  job_id: column.int8,
  case_id: column.int8,
  finished: column.bool,
  failure: column.nullable(column.text),
});

export const { statement, rowsOf, firstRowOf } = modulePersistence('src/modules/bulk-changes', [
  BULK_JOBS, BULK_JOB_CASES,
]);

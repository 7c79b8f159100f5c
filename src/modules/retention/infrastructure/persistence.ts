import { modulePersistence } from '../../../shared/database/module-persistence.js';
import { column, table } from '../../../shared/database/typed-statement.js';

/**
 * The retention module's tables, each row as the migrations made it
 * (test/integration/table-definitions.integration-spec.ts), and what declares and runs its
 * statements: no other module's persistence runs them, and no other module may import this file.
 */

export const ORGANIZATION_RETENTION = table('organization_retention', {
  organization_id: column.int8,
  runs_days: column.nullable(column.int4),
  deliveries_days: column.nullable(column.int4),
  closed_cases_days: column.nullable(column.int4),
  updated_at: column.timestamptz,
  audit_days: column.nullable(column.int4),
});

export const { statement, rowsOf, firstRowOf } = modulePersistence('src/modules/retention', [
  ORGANIZATION_RETENTION,
]);

import { modulePersistence } from '../../../shared/database/module-persistence.js';
import { column, table } from '../../../shared/database/typed-statement.js';

/**
 * The case-views module's tables, each row as the migrations made it
 * (test/integration/table-definitions.integration-spec.ts), and what declares and runs its
 * statements: no other module's persistence runs them, and no other module may import this file.
 */

export const CASE_VIEWS = table('case_views', {
  organization_id: column.int8,
  id: column.int8,
  owner_id: column.nullable(column.int8),
  name: column.text,
  filters: column.jsonb(),
  columns: column.textArray,
  shared: column.bool,
  created_at: column.timestamptz,
  updated_at: column.timestamptz,
});

export const { statement, rowsOf, firstRowOf } = modulePersistence('src/modules/case-views', [
  CASE_VIEWS,
]);

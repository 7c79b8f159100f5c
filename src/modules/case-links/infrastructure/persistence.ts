import { modulePersistence } from '../../../shared/database/module-persistence.js';
import { column, table } from '../../../shared/database/typed-statement.js';

/**
 * The case-links module's tables, each row as the migrations made it
 * (test/integration/table-definitions.integration-spec.ts), and what declares and runs its
 * statements: no other module's persistence runs them, and no other module may import this file.
 */

export const CASE_LINKS = table('case_links', {
  organization_id: column.int8,
  id: column.int8,
  case_id: column.int8,
  other_case_id: column.int8,
  type: column.text,
  created_at: column.timestamptz,
});

export const { statement, prepared, rowsIn } = modulePersistence('src/modules/case-links', [
  CASE_LINKS,
]);

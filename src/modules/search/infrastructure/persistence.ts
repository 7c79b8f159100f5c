import { modulePersistence } from '../../../shared/database/module-persistence.js';
import { column, table } from '../../../shared/database/typed-statement.js';

/**
 * The search module's tables, each row as the migrations made it
 * (test/integration/table-definitions.integration-spec.ts), and what declares and runs its
 * statements: no other module's persistence runs them, and no other module may import this file.
 */

export const CASE_SEARCH_DOCUMENTS = table('case_search_documents', {
  organization_id: column.int8,
  case_id: column.int8,
  workflow_id: column.int8,
  subject_text: column.tsvector,
  case_text: column.tsvector,
  all_text: column.tsvector,
  attributes_text: column.tsvector,
  fields: column.nullable(column.jsonb()),
  source_digest: column.nullable(column.bytea),
  fields_json: column.nullable(column.json()),
});

export const CASE_SEARCH_POSITIONS = table('case_search_positions', {
  organization_id: column.int8,
  workflow_id: column.int8,
  change_xid: column.xid8,
  case_id: column.int8,
});

export const { statement, rowsOf, prepared, rowsIn } = modulePersistence('src/modules/search', [
  CASE_SEARCH_DOCUMENTS, CASE_SEARCH_POSITIONS,
]);

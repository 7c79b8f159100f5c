import { modulePersistence } from '../../../shared/database/module-persistence.js';
import { column, table } from '../../../shared/database/typed-statement.js';
import type { AuditActor } from '../domain/audit-entry.js';

/**
 * The audit module's tables, each row as the migrations made it
 * (test/integration/table-definitions.integration-spec.ts), and what declares and runs its
 * statements: no other module's persistence runs them, and no other module may import this file.
 */

export const AUDIT_ENTRIES = table('audit_entries', {
  organization_id: column.int8,
  id: column.int8,
  at: column.timestamptz,
  actor_type: column.textOf<AuditActor['type']>(),
  actor_id: column.text,
  actor_name: column.text,
  action: column.text,
  target_type: column.text,
  target_id: column.text,
  address: column.nullable(column.text),
  summary: column.jsonb<Record<string, unknown>>(),
  xid: column.xid8,
});

export const { statement, statementBuilder, rowsOf, firstRowOf } = modulePersistence('src/modules/audit', [
  AUDIT_ENTRIES,
]);

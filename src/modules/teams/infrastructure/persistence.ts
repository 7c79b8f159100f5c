import { modulePersistence } from '../../../shared/database/module-persistence.js';
import { column, table } from '../../../shared/database/typed-statement.js';

/**
 * The teams module's tables, each row as the migrations made it
 * (test/integration/table-definitions.integration-spec.ts), and what declares and runs its
 * statements: no other module's persistence runs them, and no other module may import this file.
 */

export const TEAMS = table('teams', {
  organization_id: column.int8,
  id: column.int8,
  name: column.text,
  created_at: column.timestamptz,
});

export const TEAM_MEMBERS = table('team_members', {
  organization_id: column.int8,
  team_id: column.int8,
  user_id: column.int8,
  last_assigned_at: column.nullable(column.timestamptz),
});

export const { statement, rowsOf, firstRowOf } = modulePersistence('src/modules/teams', [
  TEAMS, TEAM_MEMBERS,
]);

import { modulePersistence } from '../../../shared/database/module-persistence.js';
import { entityTable } from '../../../shared/database/typed-statement.js';
import { OrganizationOrmEntity } from './organization.orm-entity.js';

/**
 * The organizations module's tables, each row as the migrations made it
 * (test/integration/table-definitions.integration-spec.ts), and what declares and runs its
 * statements: no other module's persistence runs them, and no other module may import this file.
 */

export const ORGANIZATIONS = entityTable('organizations', OrganizationOrmEntity);

modulePersistence('src/modules/organizations', [
  ORGANIZATIONS,
]);

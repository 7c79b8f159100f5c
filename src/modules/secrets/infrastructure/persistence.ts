import { modulePersistence } from '../../../shared/database/module-persistence.js';
import { entityTable } from '../../../shared/database/typed-statement.js';
import { OrganizationSecretOrmEntity } from './organization-secret.orm-entity.js';

/**
 * The secrets module's tables, each row as the migrations made it
 * (test/integration/table-definitions.integration-spec.ts), and what declares and runs its
 * statements: no other module's persistence runs them, and no other module may import this file.
 */

export const ORGANIZATION_SECRETS = entityTable('organization_secrets', OrganizationSecretOrmEntity);

export const { statement, statementBuilder, firstRowOf } = modulePersistence('src/modules/secrets', [
  ORGANIZATION_SECRETS,
]);

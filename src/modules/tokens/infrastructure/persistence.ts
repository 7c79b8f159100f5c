import { modulePersistence } from '../../../shared/database/module-persistence.js';
import { entityTable } from '../../../shared/database/typed-statement.js';
import { AccessTokenOrmEntity } from './access-token.orm-entity.js';

/**
 * The tokens module's tables, each row as the migrations made it
 * (test/integration/table-definitions.integration-spec.ts), and what declares and runs its
 * statements: no other module's persistence runs them, and no other module may import this file.
 */

export const ACCESS_TOKENS = entityTable('access_tokens', AccessTokenOrmEntity);

export const { statement } = modulePersistence('src/modules/tokens', [
  ACCESS_TOKENS,
]);

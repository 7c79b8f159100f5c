import { modulePersistence } from '../../../shared/database/module-persistence.js';
import { entityTable } from '../../../shared/database/typed-statement.js';
import { WorkflowEmailAddressOrmEntity } from './workflow-email-address.orm-entity.js';

/**
 * The email module's tables, each row as the migrations made it
 * (test/integration/table-definitions.integration-spec.ts), and what declares and runs its
 * statements: no other module's persistence runs them, and no other module may import this file.
 */

export const WORKFLOW_EMAIL_ADDRESSES = entityTable('workflow_email_addresses', WorkflowEmailAddressOrmEntity);

export const { statement, statementBuilder } = modulePersistence('src/modules/email', [
  WORKFLOW_EMAIL_ADDRESSES,
]);

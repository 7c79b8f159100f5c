import { modulePersistence } from '../../../shared/database/module-persistence.js';
import { entityTable } from '../../../shared/database/typed-statement.js';
import { WorkflowFormOrmEntity } from './workflow-form.orm-entity.js';

/**
 * The forms module's tables, each row as the migrations made it
 * (test/integration/table-definitions.integration-spec.ts), and what declares and runs its
 * statements: no other module's persistence runs them, and no other module may import this file.
 */

export const WORKFLOW_FORMS = entityTable('workflow_forms', WorkflowFormOrmEntity);

export const { statement, statementBuilder } = modulePersistence('src/modules/forms', [
  WORKFLOW_FORMS,
]);

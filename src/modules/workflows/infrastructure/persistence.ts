import { modulePersistence } from '../../../shared/database/module-persistence.js';
import { entityTable } from '../../../shared/database/typed-statement.js';
import { WebhookVerificationOrmEntity } from './webhook-verification.orm-entity.js';
import { WorkflowOrmEntity } from './workflow.orm-entity.js';
import { WorkflowVersionOrmEntity } from './workflow-version.orm-entity.js';

/**
 * The workflows module's tables, each row as the migrations made it
 * (test/integration/table-definitions.integration-spec.ts), and what declares and runs its
 * statements: no other module's persistence runs them, and no other module may import this file.
 */

export const WORKFLOWS = entityTable('workflows', WorkflowOrmEntity);

export const WORKFLOW_VERSIONS = entityTable('workflow_versions', WorkflowVersionOrmEntity);

export const WEBHOOK_VERIFICATIONS = entityTable('webhook_verifications', WebhookVerificationOrmEntity);

export const { statement, statementBuilder } = modulePersistence('src/modules/workflows', [
  WORKFLOWS, WORKFLOW_VERSIONS, WEBHOOK_VERIFICATIONS,
]);

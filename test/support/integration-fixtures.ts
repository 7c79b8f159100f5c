import { randomBytes } from 'node:crypto';
import { getQueueToken } from '@nestjs/bull';
import type { Queue } from 'bull';
import { CreateCaseService } from '../../src/modules/cases/application/create-case.service.js';
import { WorkflowIntake } from '../../src/modules/cases/application/workflow-intake.js';
import { CaseRepository } from '../../src/modules/cases/domain/case.repository.js';
import { OrganizationsService } from '../../src/modules/organizations/organizations.service.js';
import { WorkflowDraftsService } from '../../src/modules/workflows/application/workflow-drafts.service.js';
import { WorkflowPublishingService } from '../../src/modules/workflows/application/workflow-publishing.service.js';
import { PublishedWorkflowsService } from '../../src/modules/workflows/application/published-workflows.service.js';
import type { WorkflowVersion } from '../../src/modules/workflows/domain/workflow-version.js';
import { RunExecutor } from '../../src/modules/automation/application/run-executor.service.js';
import { stepHandlerRegistry } from '../../src/modules/automation/application/step-handler.registry.js';
import { CloseStep } from '../../src/modules/automation/application/steps/close.step.js';
import { FailStep } from '../../src/modules/automation/application/steps/fail.step.js';
import { SetAttributesStep } from '../../src/modules/automation/application/steps/set-attributes.step.js';
import { SetStatusStep } from '../../src/modules/automation/application/steps/set-status.step.js';
import { WaitStep } from '../../src/modules/automation/application/steps/wait.step.js';
import { AUTOMATION_QUEUE } from '../../src/modules/automation/infrastructure/automation.queue.js';
import { AutomationMetrics } from '../../src/modules/automation/infrastructure/automation.metrics.js';
import { RunRepository } from '../../src/modules/automation/infrastructure/run.repository.js';
import { TransactionRunner } from '../../src/shared/database/transaction.js';
import { LOGGER } from '../../src/shared/logging/logger.js';
import type { IntegrationContext } from './integration-context.js';
import { sampleDefinition } from './scenario.js';

export interface WorkflowCase {
  organizationId: number;
  workflowId: number;
  version: WorkflowVersion;
  caseId: number;
}

/** A new organization with a published workflow whose statuses run `automations`, and one case on it (Open, its run pending). */
export async function givenCase(ctx: IntegrationContext, automations: Record<string, unknown[]>): Promise<WorkflowCase> {
  const { organization } = await ctx.get(OrganizationsService).create(`Org ${randomBytes(3).toString('hex')}`);
  const definition = sampleDefinition({ statuses: ['Triage', 'Review'], automations });
  const workflow = await ctx.get(WorkflowDraftsService).create(organization.id, definition);
  await ctx.get(WorkflowPublishingService).publish(organization.id, workflow.id);
  const version = await ctx.get(WorkflowIntake).forApi(organization.id, workflow.id);
  const attributes = { customer_email: 'ada@example.com' };
  const { id } = await ctx.get(CreateCaseService).execute({
    source: 'API',
    organizationId: organization.id,
    workflow: version,
    mode: 'live',
    attributes: { value: attributes, text: JSON.stringify(attributes) },
    actor: { kind: 'api_token', tokenId: 1 },
    answer: 'id',
  });
  return { organizationId: organization.id, workflowId: workflow.id, version, caseId: id };
}

/**
 * The run executor as the worker role wires it, on the context's own providers, with the steps
 * that touch only the case. Built by hand so the context keeps ROLE=api: no relay or worker
 * takes runs behind the test's back.
 */
export function runExecutor(ctx: IntegrationContext): RunExecutor {
  return new RunExecutor(
    ctx.get(RunRepository),
    ctx.get(CaseRepository),
    ctx.get(PublishedWorkflowsService),
    ctx.get(TransactionRunner),
    ctx.get(AutomationMetrics),
    ctx.env,
    stepHandlerRegistry(new SetAttributesStep(), new SetStatusStep(), new CloseStep(), new WaitStep(), new FailStep()),
    ctx.get<Queue>(getQueueToken(AUTOMATION_QUEUE)),
    ctx.get(LOGGER),
  );
}

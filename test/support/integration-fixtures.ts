import { CaseBatches } from '../../src/modules/automation/application/case-batches.js';
import { getQueueToken } from '@nestjs/bull';
import type { Queue } from 'bull';
import { CreateCaseService } from '../../src/modules/cases/application/create-case.service.js';
import { CaseNotifications } from '../../src/modules/cases/application/case-notifications.js';
import { CaseRepository } from '../../src/modules/cases/domain/case.repository.js';
import { RunQueue } from '../../src/modules/cases/domain/run-queue.js';
import { PublishedWorkflowsService } from '../../src/modules/workflows/application/published-workflows.service.js';
import type { WorkflowVersion } from '../../src/modules/workflows/domain/workflow-version.js';
import { CaseAssigner } from '../../src/modules/automation/application/case-assigner.js';
import { RunExecutor } from '../../src/modules/automation/application/run-executor.service.js';
import { StepRunner } from '../../src/modules/automation/application/step-runner.js';
import { OutboundHttp } from '../../src/shared/outbound/outbound-http.js';
import { SecretsService } from '../../src/modules/secrets/application/secrets.service.js';
import { CloseStep } from '../../src/modules/automation/application/steps/close.step.js';
import { FailStep } from '../../src/modules/automation/application/steps/fail.step.js';
import { SetAttributesStep } from '../../src/modules/automation/application/steps/set-attributes.step.js';
import { SetStatusStep } from '../../src/modules/automation/application/steps/set-status.step.js';
import { WaitStep } from '../../src/modules/automation/application/steps/wait.step.js';
import { AUTOMATION_QUEUE } from '../../src/modules/automation/infrastructure/automation.queue.js';
import { BullRunScheduler } from '../../src/modules/automation/infrastructure/bull-run-scheduler.js';
import { AutomationMetrics } from '../../src/modules/automation/infrastructure/automation.metrics.js';
import { TransactionRunner } from '../../src/shared/database/transaction.js';
import { LOGGER } from '../../src/shared/logging/logger.js';
import type { IntegrationContext } from './integration-context.js';
import { givenOrganization, givenPublishedWorkflow } from './integration-scenario.js';
import { sampleDefinition } from './scenario.js';

export interface WorkflowCase {
  organizationId: number;
  workflowId: number;
  version: WorkflowVersion;
  caseId: number;
}

/** A new organization with a published workflow whose statuses run `automations`, and one case on it (Open, its run pending). */
export async function givenCase(ctx: IntegrationContext, automations: Record<string, unknown[]>): Promise<WorkflowCase> {
  const organization = await givenOrganization(ctx);
  const version = await givenPublishedWorkflow(ctx, organization.id, sampleDefinition({ statuses: ['Triage', 'Review'], automations }));
  const id = await givenCaseOn(ctx, organization.id, version);
  return { organizationId: organization.id, workflowId: version.workflowId, version, caseId: id };
}

/** A new case on `version` of the organization's workflow, created through the API's way in; its id. */
export async function givenCaseOn(ctx: IntegrationContext, organizationId: number, version: WorkflowVersion): Promise<number> {
  const attributes = { customer_email: 'ada@example.com' };
  const { id } = await ctx.get(CreateCaseService).execute({
    source: 'API',
    organizationId,
    workflow: version,
    mode: 'live',
    attributes: { value: attributes, text: JSON.stringify(attributes) },
    actor: { kind: 'api_token', tokenId: 1 },
    answer: 'id',
  });
  return id;
}

/**
 * The run executor as the worker role wires it, on the context's own providers, with the steps
 * that touch only the case. Built by hand so the context keeps ROLE=api: no relay or worker
 * takes runs behind the test's back.
 */
export function runExecutor(ctx: IntegrationContext): RunExecutor {
  return new RunExecutor(
    ctx.get(RunQueue),
    new CaseBatches(ctx.get(CaseRepository), ctx.get(TransactionRunner)),
    ctx.get(CaseRepository),
    ctx.get(PublishedWorkflowsService),
    ctx.get(AutomationMetrics),
    ctx.env,
    new StepRunner(new Map([new SetAttributesStep(), new SetStatusStep(), new CloseStep(), new WaitStep(), new FailStep()].map((step) => [step.type, step])), ctx.get(OutboundHttp), ctx.get(SecretsService), ctx.get(LOGGER)),
    new BullRunScheduler(ctx.get<Queue>(getQueueToken(AUTOMATION_QUEUE))),
    ctx.get(CaseAssigner),
    ctx.get(CaseNotifications),
    ctx.get(LOGGER),
  );
}

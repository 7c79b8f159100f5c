import { BullModule } from '@nestjs/bull';
import { type DynamicModule, Module } from '@nestjs/common';
import type { Env } from '../../shared/config/env.js';
import { CasesModule } from '../cases/cases.module.js';
import { RunQueue } from '../cases/domain/run-queue.js';
import { SecretsModule } from '../secrets/secrets.module.js';
import { TokensModule } from '../tokens/tokens.module.js';
import { WorkflowsModule } from '../workflows/workflows.module.js';
import { AUTOMATION_QUEUE } from './infrastructure/automation.queue.js';
import { AutomationMetrics } from './infrastructure/automation.metrics.js';
import { QueueMetrics } from './infrastructure/queue.metrics.js';
import { RunExecutor } from './application/run-executor.service.js';
import { CaseBatches } from './application/case-batches.js';
import { RunRelay } from './infrastructure/run-relay.service.js';
import { AutomationBacklog } from './infrastructure/automation-backlog.js';
import { BullRunScheduler } from './infrastructure/bull-run-scheduler.js';
import { RunLeases, RunMetrics, RunScheduler, StepTypes } from './application/run-engine.ports.js';
import { BUILT_IN_STEP_TYPES } from './application/steps/index.js';
import { StepRunner } from './application/step-runner.js';
import { ExtensionsModule } from '../extensions/extensions.module.js';
import { StepTypeRegistry } from '../extensions/step-type.registry.js';
import { StepTypesController } from './http/step-types.controller.js';
import { TestRunService } from './application/test-run.service.js';
import { CaseAssigner } from './application/case-assigner.js';
import { TestRunsController } from './http/test-runs.controller.js';

/**
 * Workflow runs on Bull, the engine of the runs the cases module stores with their case. The
 * HTTP tier (ROLE=api) only reports queue metrics; workers (ROLE=worker, or `all`) relay
 * pending runs to the queue and execute them.
 */
@Module({})
export class AutomationModule {
  static forRoot(env: Env): DynamicModule {
    const worker = env.ROLE !== 'api';
    return {
      module: AutomationModule,
      imports: [BullModule.registerQueue({ name: AUTOMATION_QUEUE }), CasesModule, WorkflowsModule, TokensModule, SecretsModule, ExtensionsModule],
      controllers: [StepTypesController, TestRunsController],
      providers: [
        // In every role: the definition validator and the API documents read their schemas, and test runs run them.
        ...BUILT_IN_STEP_TYPES,
        StepRunner,
        { provide: StepTypes, useExisting: StepTypeRegistry },
        TestRunService,
        CaseAssigner,
        AutomationMetrics,
        QueueMetrics,
        ...(worker
          ? [
              RunExecutor,
              CaseBatches,
              { provide: RunLeases, useExisting: RunQueue },
              { provide: RunMetrics, useExisting: AutomationMetrics },
              { provide: RunScheduler, useClass: BullRunScheduler },
              RunRelay,
              AutomationBacklog,
            ]
          : []),
      ],
    };
  }
}

import { BullModule } from '@nestjs/bull';
import { type DynamicModule, Module } from '@nestjs/common';
import type { Env } from '../../shared/config/env.js';
import { CasesModule } from '../cases/cases.module.js';
import { TokensModule } from '../tokens/tokens.module.js';
import { WorkflowsModule } from '../workflows/workflows.module.js';
import { BulkCaseChanges } from './application/bulk-case-changes.js';
import { BulkJobRunner } from './application/bulk-job-runner.js';
import { BulkJobStore } from './application/bulk-job-store.js';
import { BulkJobsService } from './application/bulk-jobs.service.js';
import { BulkJobsController } from './http/bulk-jobs.controller.js';
import { BulkJobRelay } from './infrastructure/bulk-job-relay.service.js';
import { BULK_JOBS_QUEUE } from './infrastructure/bulk-jobs.queue.js';
import { PostgresBulkJobStore } from './infrastructure/postgres-bulk-job-store.js';

/**
 * Bulk changes of cases (casework.md, section 6): API roles accept jobs and show their progress;
 * worker roles relay them to Bull and run them.
 */
@Module({})
export class BulkChangesModule {
  static forRoot(env: Env): DynamicModule {
    const worker = env.ROLE !== 'api';
    return {
      module: BulkChangesModule,
      imports: [CasesModule, WorkflowsModule, TokensModule, ...(worker ? [BullModule.registerQueue({ name: BULK_JOBS_QUEUE })] : [])],
      controllers: [BulkJobsController],
      providers: [
        BulkJobsService,
        { provide: BulkJobStore, useClass: PostgresBulkJobStore },
        BulkCaseChanges,
        ...(worker ? [BulkJobRunner, BulkJobRelay] : []),
      ],
    };
  }
}

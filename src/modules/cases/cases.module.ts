import { Module } from '@nestjs/common';
import { TokensModule } from '../tokens/tokens.module.js';
import { WorkflowsModule } from '../workflows/workflows.module.js';
import { ApiCaseSource, WebhookCaseSource } from './application/built-in-case-sources.js';
import { CaseQueries } from './application/case-queries.js';
import { CaseEmailsService } from './application/case-emails.service.js';
import { CaseMergeReads, CaseMerges } from './application/case-merges.js';
import { MergeCasesService } from './application/merge-cases.service.js';
import { CaseQueriesService } from './application/case-queries.service.js';
import { QueriedCaseFeed } from './application/queried-case-feed.js';
import { ChangeCaseStatusService } from './application/change-case-status.service.js';
import { CaseWorkService } from './application/case-work.service.js';
import { CaseAssignments } from './domain/case-work.ports.js';
import { PostgresCaseAssignments } from './infrastructure/postgres-case-assignments.js';
import { CreateCaseService } from './application/create-case.service.js';
import { GetCaseService } from './application/get-case.service.js';
import { IntakeMetrics } from './application/intake-metrics.js';
import { WorkflowIntake } from './application/workflow-intake.js';
import { CasePurges } from '../retention/application/retention.ports.js';
import { CaseFeedReads } from './domain/case-feed-reads.js';
import { CaseRepository } from './domain/case.repository.js';
import { RunQueue } from './domain/run-queue.js';
import { UsageService } from './application/usage.service.js';
import { UsageCounts } from './application/usage.ports.js';
import { CaseStatementParts } from './domain/case-statement-parts.js';
import { CaseTextSearches } from './domain/case-text-search.js';
import { CaseSearchFeed } from './application/case-search-feed.js';
import { PostgresCaseSearchFeed } from './infrastructure/postgres-case-search-feed.js';
import { CaseWatchingSql } from './domain/case-watching-sql.js';
import { CaseServiceLevels } from './domain/case-service-levels.js';
import { AdminCasesController } from './http/admin-cases.controller.js';
import { CaseMergesController } from './http/case-merges.controller.js';
import { CasesController } from './http/cases.controller.js';
import { UsageController } from './http/usage.controller.js';
import { WebhookCasesController } from './http/webhook-cases.controller.js';
import { WebhookTokenCheck } from './http/webhook-token.check.js';
import { CaseMetrics } from './infrastructure/case-metrics.js';
import { PostgresCasePurges } from './infrastructure/postgres-case-purges.js';
import { PostgresRunQueue } from './infrastructure/postgres-run-queue.js';
import { PostgresUsageCounts } from './infrastructure/postgres-usage-counts.js';
import { PostgresCaseMergeReads, PostgresCaseMerges } from './infrastructure/postgres-case-merges.js';
import { PostgresCaseQueries } from './infrastructure/postgres-case-queries.js';
import { PostgresCaseRepository } from './infrastructure/postgres-case.repository.js';
import { IntakePressure } from './infrastructure/intake-pressure.js';

@Module({
  imports: [TokensModule, WorkflowsModule],
  controllers: [CasesController, WebhookCasesController, AdminCasesController, CaseMergesController, UsageController],
  providers: [
    CreateCaseService,
    GetCaseService,
    ChangeCaseStatusService,
    CaseWorkService,
    { provide: CaseAssignments, useClass: PostgresCaseAssignments },
    CaseQueriesService,
    CaseEmailsService,
    MergeCasesService,
    { provide: CaseMerges, useClass: PostgresCaseMerges },
    { provide: CaseMergeReads, useClass: PostgresCaseMergeReads },
    WorkflowIntake,
    CaseMetrics,
    { provide: IntakeMetrics, useExisting: CaseMetrics },
    WebhookTokenCheck,
    ApiCaseSource,
    WebhookCaseSource,
    CaseStatementParts,
    CaseTextSearches,
    { provide: CaseSearchFeed, useClass: PostgresCaseSearchFeed },
    CaseWatchingSql,
    CaseServiceLevels,
    PostgresCaseRepository,
    { provide: CaseRepository, useExisting: PostgresCaseRepository },
    IntakePressure,
    { provide: CaseQueries, useClass: PostgresCaseQueries },
    { provide: CaseFeedReads, useClass: QueriedCaseFeed },
    { provide: RunQueue, useClass: PostgresRunQueue },
    UsageService,
    { provide: UsageCounts, useClass: PostgresUsageCounts },
    { provide: CasePurges, useClass: PostgresCasePurges },
  ],
  exports: [CaseRepository, CaseFeedReads, RunQueue, CaseStatementParts, CaseTextSearches, CaseSearchFeed, CreateCaseService, CaseEmailsService, CaseQueriesService, CaseWorkService, CaseAssignments, CaseWatchingSql, CaseServiceLevels, CaseMergeReads],
})
export class CasesModule {}

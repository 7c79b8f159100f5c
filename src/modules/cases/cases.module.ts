import { Module } from '@nestjs/common';
import { TokensModule } from '../tokens/tokens.module.js';
import { WorkflowsModule } from '../workflows/workflows.module.js';
import { CaseQueries } from './application/case-queries.js';
import { CaseEmailsService } from './application/case-emails.service.js';
import { CaseQueriesService } from './application/case-queries.service.js';
import { ChangeCaseStatusService } from './application/change-case-status.service.js';
import { CreateCaseService } from './application/create-case.service.js';
import { GetCaseService } from './application/get-case.service.js';
import { IntakeMetrics } from './application/intake-metrics.js';
import { WorkflowIntake } from './application/workflow-intake.js';
import { CaseRepository } from './domain/case.repository.js';
import { CaseStatementParts } from './domain/case-statement-parts.js';
import { AdminCasesController } from './http/admin-cases.controller.js';
import { CasesController } from './http/cases.controller.js';
import { WebhookCasesController } from './http/webhook-cases.controller.js';
import { WebhookTokenGuard } from './http/webhook-token.guard.js';
import { CaseMetrics } from './infrastructure/case-metrics.js';
import { PostgresCaseQueries } from './infrastructure/postgres-case-queries.js';
import { PostgresCaseRepository } from './infrastructure/postgres-case.repository.js';

@Module({
  imports: [TokensModule, WorkflowsModule],
  controllers: [CasesController, WebhookCasesController, AdminCasesController],
  providers: [
    CreateCaseService,
    GetCaseService,
    ChangeCaseStatusService,
    CaseQueriesService,
    CaseEmailsService,
    WorkflowIntake,
    CaseMetrics,
    { provide: IntakeMetrics, useExisting: CaseMetrics },
    WebhookTokenGuard,
    CaseStatementParts,
    { provide: CaseRepository, useClass: PostgresCaseRepository },
    { provide: CaseQueries, useClass: PostgresCaseQueries },
  ],
  exports: [CaseRepository, CaseStatementParts, CreateCaseService, CaseEmailsService],
})
export class CasesModule {}

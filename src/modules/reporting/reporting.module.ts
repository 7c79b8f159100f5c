import { BullModule } from '@nestjs/bull';
import { type DynamicModule, Module } from '@nestjs/common';
import type { Env } from '../../shared/config/env.js';
import { CasesModule } from '../cases/cases.module.js';
import { OrganizationsModule } from '../organizations/organizations.module.js';
import { CaseStatementParts } from '../cases/domain/case-statement-parts.js';
import { DigestSendPurges } from '../retention/application/retention.ports.js';
import { TokensModule } from '../tokens/tokens.module.js';
import { CaseReportFigures, ReportFold } from './application/case-report.ports.js';
import { CaseReportService } from './application/case-report.service.js';
import { DigestPass } from './application/digest-pass.service.js';
import { DigestRecipientsService } from './application/digest-recipients.service.js';
import { ChartRenderer, DigestMailer, DigestStore, RecipientStore } from './application/digest.ports.js';
import { DigestsService } from './application/digests.service.js';
import { InvitationPass } from './application/invitation-pass.service.js';
import { RecipientTokens } from './application/recipient-tokens.js';
import { CaseReportController } from './http/case-report.controller.js';
import { DigestsController } from './http/digests.controller.js';
import { RecipientPagesController } from './http/recipient-pages.controller.js';
import { reportLogStatementPart } from './infrastructure/case-report-changes.sql.js';
import { DIGEST_QUEUE, DigestSchedule } from './infrastructure/digest-schedule.service.js';
import { RelayMailer } from '../../shared/mail/relay-mailer.js';
import { PostgresCaseReportFigures, PostgresReportFold } from './infrastructure/postgres-case-report-figures.js';
import { PostgresDigestSendPurges } from './infrastructure/postgres-digest-send-purges.js';
import { PostgresDigestStore } from './infrastructure/postgres-digest-store.js';
import { PostgresRecipientStore } from './infrastructure/postgres-recipient-store.js';
import { ReportFolding } from './infrastructure/report-folding.service.js';

/**
 * Reporting: the report and digest APIs and the digest recipients' pages everywhere, read from
 * rollups the case statements feed (see the CaseReports migration); in worker roles, the fold
 * of the change log into the rollups and the digest scheduler (a repeatable Bull job). The
 * case statements write the change log with the report log's part.
 */
@Module({})
export class ReportingModule {
  constructor(parts: CaseStatementParts) {
    parts.add(reportLogStatementPart);
  }

  static forRoot(env: Env): DynamicModule {
    const worker = env.ROLE !== 'api';
    return {
      module: ReportingModule,
      imports: [CasesModule, OrganizationsModule, TokensModule, ...(worker ? [BullModule.registerQueue({ name: DIGEST_QUEUE })] : [])],
      controllers: [CaseReportController, DigestsController, RecipientPagesController],
      providers: [
        CaseReportService,
        DigestsService,
        DigestRecipientsService,
        RecipientTokens,
        { provide: CaseReportFigures, useClass: PostgresCaseReportFigures },
        { provide: DigestStore, useClass: PostgresDigestStore },
        { provide: RecipientStore, useClass: PostgresRecipientStore },
        RelayMailer,
        { provide: DigestMailer, useExisting: RelayMailer },
        { provide: DigestSendPurges, useClass: PostgresDigestSendPurges },
        ...(worker
          ? [
              { provide: ReportFold, useClass: PostgresReportFold },
              ReportFolding,
              // Imported here, in worker roles only: resvg is a native library the API role never uses.
              { provide: ChartRenderer, useFactory: async () => new (await import('./infrastructure/resvg-chart-renderer.js')).ResvgChartRenderer() },
              InvitationPass,
              DigestPass,
              DigestSchedule,
            ]
          : []),
      ],
    };
  }
}

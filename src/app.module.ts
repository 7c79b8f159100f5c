import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import type { Logger } from 'pino';
import type { ExtensionModule } from './extension-api/extensions.js';
import { AuditModule } from './modules/audit/audit.module.js';
import { HealthModule } from './modules/health/health.module.js';
import { OrganizationNamesModule } from './modules/organizations/organization-names.module.js';
import { OrganizationsModule } from './modules/organizations/organizations.module.js';
import { TokensModule } from './modules/tokens/tokens.module.js';
import { PeopleModule } from './modules/people/people.module.js';
import { SignInMailsModule } from './modules/people/sign-in-mails.module.js';
import { WorkflowsModule } from './modules/workflows/workflows.module.js';
import { CasesModule } from './modules/cases/cases.module.js';
import { CaseIntakeModule } from './modules/cases/case-intake.module.js';
import { CaseViewsModule } from './modules/case-views/case-views.module.js';
import { BulkChangesModule } from './modules/bulk-changes/bulk-changes.module.js';
import { TeamsModule } from './modules/teams/teams.module.js';
import { AutomationModule } from './modules/automation/automation.module.js';
import { SubscriptionsModule } from './modules/subscriptions/subscriptions.module.js';
import { CaseEventsModule } from './modules/case-events/case-events.module.js';
import { CaseLinksModule } from './modules/case-links/case-links.module.js';
import { SecretsModule } from './modules/secrets/secrets.module.js';
import { RetentionModule } from './modules/retention/retention.module.js';
import { EmailModule } from './modules/email/email.module.js';
import { FormsModule } from './modules/forms/forms.module.js';
import { CommentsModule } from './modules/comments/comments.module.js';
import { ReportingModule } from './modules/reporting/reporting.module.js';
import { SlaModule } from './modules/sla/sla.module.js';
import { SearchModule } from './modules/search/search.module.js';
import { MetricsModule, type MetricsRegistry } from './shared/metrics/metrics.module.js';
import { OutboundModule } from './shared/outbound/outbound.module.js';
import { CacheModule } from './shared/cache/cache.module.js';
import { ConfigModule } from './shared/config/config.module.js';
import { CryptoModule } from './shared/crypto/crypto.module.js';
import type { Env } from './shared/config/env.js';
import { DatabaseModule } from './shared/database/database.module.js';
import { AllErrorsFilter } from './shared/http-errors/all-errors.filter.js';
import { RequestValidationPipe } from './shared/http/request-validation.pipe.js';
import { LoggingModule } from './shared/logging/logging.module.js';
import { QueueModule } from './shared/queue/queue.module.js';
import { RedisModule } from './shared/redis/redis.module.js';

@Module({})
export class AppModule {
  /** `extensions` are imported after the built-in modules, whose registries find their providers at start. */
  static forRoot(env: Env, logger: Logger, metrics: MetricsRegistry, extensions: ExtensionModule[] = []): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(env),
        CryptoModule,
        LoggingModule.forRoot(logger),
        DatabaseModule,
        CacheModule,
        RedisModule,
        QueueModule,
        MetricsModule.forRoot(metrics),
        OutboundModule,
        HealthModule,
        AuditModule,
        TokensModule,
        PeopleModule,
        SignInMailsModule.forRoot(env),
        OrganizationsModule,
        OrganizationNamesModule,
        WorkflowsModule,
        CasesModule,
        CaseIntakeModule,
        CaseLinksModule,
        CaseViewsModule,
        BulkChangesModule.forRoot(env),
        TeamsModule,
        AutomationModule.forRoot(env),
        SubscriptionsModule.forRoot(env),
        CaseEventsModule.forRoot(env),
        SecretsModule,
        RetentionModule.forRoot(env),
        EmailModule,
        FormsModule,
        CommentsModule,
        ReportingModule.forRoot(env),
        SlaModule.forRoot(env),
        SearchModule.forRoot(env),
        ...extensions,
      ],
      providers: [
        { provide: APP_FILTER, useClass: AllErrorsFilter },
        { provide: APP_PIPE, useClass: RequestValidationPipe },
      ],
    };
  }
}

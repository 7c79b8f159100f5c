import type { DataSourceOptions } from 'typeorm';
import type { Env } from '../config/env.js';
import { InitialSchema1763750000000 } from './migrations/1763750000000-initial-schema.js';
import { EventSubscriptions1763760000000 } from './migrations/1763760000000-event-subscriptions.js';
import { RelayIndexes1763770000000 } from './migrations/1763770000000-relay-indexes.js';
import { UnfinishedRunsByCase1763780000000 } from './migrations/1763780000000-unfinished-runs-by-case.js';
import { OrganizationSecrets1763790200000 } from './migrations/1763790200000-organization-secrets.js';
import { CacheGeneration1763790600000 } from './migrations/1763790600000-cache-generation.js';
import { LeaseIndexes1763793000000 } from './migrations/1763793000000-lease-indexes.js';
import { Retention1763800000000 } from './migrations/1763800000000-retention.js';
import { EmailIntake1763810000000 } from './migrations/1763810000000-email-intake.js';
import { WebhookVerifications1763820000000 } from './migrations/1763820000000-webhook-verifications.js';
import { RequestForms1763830000000 } from './migrations/1763830000000-request-forms.js';
import { CaseChangeFeed1763840000000 } from './migrations/1763840000000-case-change-feed.js';
import { WebhookDedupKeys1763850000000 } from './migrations/1763850000000-webhook-dedup-keys.js';
import { SubscriptionRecovery1763860000000 } from './migrations/1763860000000-subscription-recovery.js';
import { CaseReports1763870000000 } from './migrations/1763870000000-case-reports.js';
import { Digests1763870100000 } from './migrations/1763870100000-digests.js';
import { LooseCaseForeignKeys1763880000000 } from './migrations/1763880000000-loose-case-foreign-keys.js';
import { CacheInvalidations1763890600000 } from './migrations/1763890600000-cache-invalidations.js';
import { DigestUnsubscribeTokens1763890700000 } from './migrations/1763890700000-digest-unsubscribe-tokens.js';
import { DefinitionsAsSaved1763890800000 } from './migrations/1763890800000-definitions-as-saved.js';
import { ExtensionNames1763890900000 } from './migrations/1763890900000-extension-names.js';
import { VersionPublishers1763890950000 } from './migrations/1763890950000-version-publishers.js';
import { CaseEventListeners1763900300000 } from './migrations/1763900300000-case-event-listeners.js';
import { RunTraces1763900450000 } from './migrations/1763900450000-run-traces.js';
import { AuditEntries1763900500000 } from './migrations/1763900500000-audit-entries.js';
import { People1763910000000 } from './migrations/1763910000000-people.js';
import { AuditCommitOrder1763915000000 } from './migrations/1763915000000-audit-commit-order.js';
import { SsoConfigurations1763920000000 } from './migrations/1763920000000-sso-configurations.js';
import { SignInPurgeIndexes1763930000000 } from './migrations/1763930000000-sign-in-purge-indexes.js';
import { SignInMails1763940000000 } from './migrations/1763940000000-sign-in-mails.js';
import { SsoDomainVerification1763960000000 } from './migrations/1763960000000-sso-domain-verification.js';
import { AuditFilterIndexes1763970000000 } from './migrations/1763970000000-audit-filter-indexes.js';
import { SsoSignInLinks1763984100000 } from './migrations/1763984100000-sso-sign-in-links.js';
import { AgentRole1764000000000 } from './migrations/1764000000000-agent-role.js';
import { SearchDocuments1764100000000 } from './migrations/1764100000000-search-documents.js';
import { Sla1764200000000 } from './migrations/1764200000000-sla.js';
import { SlaTimers1764200100000 } from './migrations/1764200100000-sla-timers.js';
import { CaseAssignment1764300000000 } from './migrations/1764300000000-case-assignment.js';
import { Teams1764300100000 } from './migrations/1764300100000-teams.js';
import { CommentsAndNotifications1764400000000 } from './migrations/1764400000000-comments-and-notifications.js';
import { CaseViewsAndBulkJobs1764500000000 } from './migrations/1764500000000-case-views-and-bulk-jobs.js';
import { CaseMerges1764600000000 } from './migrations/1764600000000-case-merges.js';
import { CaseLinks1764600100000 } from './migrations/1764600100000-case-links.js';
import { SlaTimerDueTimes1764900000000 } from './migrations/1764900000000-sla-timer-due-times.js';
import { SlaTimersDueIndex1764950000000 } from './migrations/1764950000000-sla-timers-due-index.js';
import { SlaRunsAndTimerPurge1765000000000 } from './migrations/1765000000000-sla-runs-and-timer-purge.js';
import { SearchWithoutMessagesVector1765100000000 } from './migrations/1765100000000-search-without-messages-vector.js';
import { TimePartitions1765200000000 } from './migrations/1765200000000-time-partitions.js';
import { OrganizationFirstKeys1765300000000 } from './migrations/1765300000000-organization-first-keys.js';
import { Lz4Compression1765400000000 } from './migrations/1765400000000-lz4-compression.js';
import { FeedPurgeCounts1765500000000 } from './migrations/1765500000000-feed-purge-counts.js';
import { SearchSourceDigests1765600000000 } from './migrations/1765600000000-search-source-digests.js';
import { SearchFieldsAsJson1765700000000 } from './migrations/1765700000000-search-fields-as-json.js';
import { SearchSubjectIndexByWords1765800000000 } from './migrations/1765800000000-search-subject-index-by-words.js';

/** One definition of the Postgres connection, shared by the app and `ormconfig.ts` (migrations). */
type DatabaseEnv = Pick<Env, 'DATABASE_URL'> & Partial<Pick<Env, 'DATABASE_POOL_SIZE' | 'DATABASE_CONNECT_TIMEOUT_MS' | 'DATABASE_STATEMENT_TIMEOUT_MS'>>;

export function dataSourceOptions(env: DatabaseEnv): DataSourceOptions {
  return {
    type: 'postgres',
    url: env.DATABASE_URL,
    synchronize: false,
    migrationsRun: false,
    migrationsTableName: 'schema_migrations',
    migrations: [InitialSchema1763750000000, EventSubscriptions1763760000000, RelayIndexes1763770000000, UnfinishedRunsByCase1763780000000, OrganizationSecrets1763790200000, CacheGeneration1763790600000, LeaseIndexes1763793000000, Retention1763800000000, EmailIntake1763810000000, WebhookVerifications1763820000000, RequestForms1763830000000, CaseChangeFeed1763840000000, WebhookDedupKeys1763850000000, SubscriptionRecovery1763860000000, CaseReports1763870000000, Digests1763870100000, LooseCaseForeignKeys1763880000000, CacheInvalidations1763890600000, DigestUnsubscribeTokens1763890700000, DefinitionsAsSaved1763890800000, ExtensionNames1763890900000, VersionPublishers1763890950000, CaseEventListeners1763900300000, RunTraces1763900450000, AuditEntries1763900500000, People1763910000000, AuditCommitOrder1763915000000, SsoConfigurations1763920000000, SignInPurgeIndexes1763930000000, SignInMails1763940000000, SsoDomainVerification1763960000000, AuditFilterIndexes1763970000000, SsoSignInLinks1763984100000, AgentRole1764000000000, SearchDocuments1764100000000, Sla1764200000000, SlaTimers1764200100000, CaseAssignment1764300000000, Teams1764300100000, CommentsAndNotifications1764400000000, CaseViewsAndBulkJobs1764500000000, CaseMerges1764600000000, CaseLinks1764600100000, SlaTimerDueTimes1764900000000, SlaTimersDueIndex1764950000000, SlaRunsAndTimerPurge1765000000000, SearchWithoutMessagesVector1765100000000, TimePartitions1765200000000, OrganizationFirstKeys1765300000000, Lz4Compression1765400000000, FeedPurgeCounts1765500000000, SearchSourceDigests1765600000000, SearchFieldsAsJson1765700000000, SearchSubjectIndexByWords1765800000000],
    logging: false,
    extra: {
      max: env.DATABASE_POOL_SIZE ?? 4,
      connectionTimeoutMillis: env.DATABASE_CONNECT_TIMEOUT_MS ?? 10_000,
      // A statement stuck behind a dead server must not hold a request forever.
      query_timeout: 30_000,
      // A slow statement (a list filter few cases match, a lock wait) is cancelled by Postgres
      // itself, freeing its backend: the client's query_timeout only stops waiting for it. Set
      // when connecting, so no request pays a statement for it; without the setting (migrations)
      // statements are unbounded.
      ...(env.DATABASE_STATEMENT_TIMEOUT_MS !== undefined && { statement_timeout: env.DATABASE_STATEMENT_TIMEOUT_MS }),
      // One statement is one backend: a parallel plan takes the same CPU in 2 more processes at
      // once, so a tenant's expensive list would take three cores for the statement timeout's
      // length instead of one (docs/list-filters.md, measured).
      options: '-c max_parallel_workers_per_gather=0',
      // A statement is sent without waiting for the one before it to be answered; code that awaits
      // each one sees no difference, and a transaction's first statements share a round trip
      // (the transaction id TypeOrmTransactionRunner reads, the case locks of PostgresCaseRepository).
      pipeline: true,
      application_name: 'case-intake',
    },
  };
}

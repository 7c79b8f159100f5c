import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ExtensionsModule } from '../extensions/extensions.module.js';
import { TokensModule } from '../tokens/tokens.module.js';
import { BUILT_IN_SENDER_SCHEMES } from './application/built-in-sender-schemes.js';
import { CaseSourceRegistry } from './application/case-source-registry.js';
import { PublishedWorkflowsService } from './application/published-workflows.service.js';
import { WebhookUrlsService } from './application/webhook-urls.service.js';
import { WorkflowDraftsService } from './application/workflow-drafts.service.js';
import { ChannelSecretKeeping } from './application/workflow-channel-secrets.js';
import { SenderSchemeRegistry } from './application/sender-scheme-registry.js';
import { WebhookVerificationService } from './application/webhook-verification.service.js';
import { WorkflowPublishingService } from './application/workflow-publishing.service.js';
import { OperatorWebhooksController } from './http/operator-webhooks.controller.js';
import { WebhookVerificationController } from './http/webhook-verification.controller.js';
import { WorkflowNamesController } from './http/workflow-names.controller.js';
import { WorkflowsController } from './http/workflows.controller.js';
import { SourceCredentialCheck } from './http/source-credential.check.js';
import { WorkflowVersionsController } from './http/workflow-versions.controller.js';
import { WorkflowVersionsService } from './application/workflow-versions.service.js';
import { WebhookVerificationOrmEntity } from './infrastructure/webhook-verification.orm-entity.js';
import { WorkflowOrmEntity } from './infrastructure/workflow.orm-entity.js';
import { WorkflowVersionOrmEntity } from './infrastructure/workflow-version.orm-entity.js';
import { TypeOrmWebhookVerificationStore } from './infrastructure/typeorm-webhook-verification-store.js';
import { TypeOrmWorkflowStore } from './infrastructure/typeorm-workflow-store.js';
import { TypeOrmWorkflowVersionStore } from './infrastructure/typeorm-workflow-version-store.js';
import { WebhookVerificationStore, WorkflowStore, WorkflowVersionStore } from './application/workflow-stores.js';

const STORES = [
  { provide: WorkflowStore, useClass: TypeOrmWorkflowStore },
  { provide: WorkflowVersionStore, useClass: TypeOrmWorkflowVersionStore },
  { provide: WebhookVerificationStore, useClass: TypeOrmWebhookVerificationStore },
];

@Module({
  imports: [TypeOrmModule.forFeature([WorkflowOrmEntity, WorkflowVersionOrmEntity, WebhookVerificationOrmEntity]), TokensModule, DiscoveryModule, ExtensionsModule],
  controllers: [WorkflowsController, WorkflowNamesController, WorkflowVersionsController, WebhookVerificationController, OperatorWebhooksController],
  providers: [WorkflowDraftsService, WorkflowVersionsService, WorkflowPublishingService, WebhookUrlsService, WebhookVerificationService, PublishedWorkflowsService, ChannelSecretKeeping, CaseSourceRegistry, SourceCredentialCheck, SenderSchemeRegistry, ...BUILT_IN_SENDER_SCHEMES, ...STORES],
  exports: [PublishedWorkflowsService, WorkflowDraftsService, ChannelSecretKeeping, CaseSourceRegistry],
})
export class WorkflowsModule {}

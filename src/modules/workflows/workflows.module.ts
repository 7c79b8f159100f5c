import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ExtensionsModule } from '../extensions/extensions.module.js';
import { TokensModule } from '../tokens/tokens.module.js';
import { PublishedWorkflowsService } from './application/published-workflows.service.js';
import { WebhookUrlsService } from './application/webhook-urls.service.js';
import { WorkflowDraftsService } from './application/workflow-drafts.service.js';
import { ChannelSecretKeeping } from './application/workflow-channel-secrets.js';
import { WebhookVerificationService } from './application/webhook-verification.service.js';
import { WorkflowPublishingService } from './application/workflow-publishing.service.js';
import { OperatorWebhooksController } from './http/operator-webhooks.controller.js';
import { WebhookVerificationController } from './http/webhook-verification.controller.js';
import { WorkflowsController } from './http/workflows.controller.js';
import { WebhookVerificationOrmEntity } from './infrastructure/webhook-verification.orm-entity.js';
import { WorkflowOrmEntity } from './infrastructure/workflow.orm-entity.js';
import { WorkflowVersionOrmEntity } from './infrastructure/workflow-version.orm-entity.js';

@Module({
  imports: [TypeOrmModule.forFeature([WorkflowOrmEntity, WorkflowVersionOrmEntity, WebhookVerificationOrmEntity]), TokensModule, ExtensionsModule],
  controllers: [WorkflowsController, WebhookVerificationController, OperatorWebhooksController],
  providers: [WorkflowDraftsService, WorkflowPublishingService, WebhookUrlsService, WebhookVerificationService, PublishedWorkflowsService, ChannelSecretKeeping],
  exports: [PublishedWorkflowsService, WorkflowDraftsService, ChannelSecretKeeping],
})
export class WorkflowsModule {}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TokensModule } from '../tokens/tokens.module.js';
import { PublishedWorkflowsService } from './application/published-workflows.service.js';
import { WebhookUrlsService } from './application/webhook-urls.service.js';
import { WorkflowDraftsService } from './application/workflow-drafts.service.js';
import { WorkflowPublishingService } from './application/workflow-publishing.service.js';
import { OperatorWebhooksController } from './http/operator-webhooks.controller.js';
import { WorkflowsController } from './http/workflows.controller.js';
import { WorkflowOrmEntity } from './infrastructure/workflow.orm-entity.js';
import { WorkflowVersionOrmEntity } from './infrastructure/workflow-version.orm-entity.js';

@Module({
  imports: [TypeOrmModule.forFeature([WorkflowOrmEntity, WorkflowVersionOrmEntity]), TokensModule],
  controllers: [WorkflowsController, OperatorWebhooksController],
  providers: [WorkflowDraftsService, WorkflowPublishingService, WebhookUrlsService, PublishedWorkflowsService],
  exports: [PublishedWorkflowsService, WorkflowDraftsService],
})
export class WorkflowsModule {}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TokensModule } from '../tokens/tokens.module.js';
import { OperatorWebhooksController } from './operator-webhooks.controller.js';
import { WorkflowOrmEntity } from './workflow.orm-entity.js';
import { WorkflowVersionOrmEntity } from './workflow-version.orm-entity.js';
import { WorkflowsController } from './workflows.controller.js';
import { WorkflowsService } from './workflows.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([WorkflowOrmEntity, WorkflowVersionOrmEntity]), TokensModule],
  controllers: [WorkflowsController, OperatorWebhooksController],
  providers: [WorkflowsService],
  exports: [WorkflowsService],
})
export class WorkflowsModule {}

import { Module } from '@nestjs/common';
import { CasesModule } from '../cases/cases.module.js';
import { WorkflowsModule } from '../workflows/workflows.module.js';
import { WebhookIntakeController } from './webhook-intake.controller.js';
import { WebhookIntakeService } from './webhook-intake.service.js';
import { WebhookTokenGuard } from './webhook-token.guard.js';

@Module({
  imports: [CasesModule, WorkflowsModule],
  controllers: [WebhookIntakeController],
  providers: [WebhookIntakeService, WebhookTokenGuard],
})
export class WebhookIntakeModule {}

import { Module } from '@nestjs/common';
import { TokensModule } from '../tokens/tokens.module.js';
import { WorkflowsModule } from '../workflows/workflows.module.js';
import { CalendarsService } from './application/calendars.service.js';
import { SlaPoliciesService } from './application/sla-policies.service.js';
import { CalendarStore, SlaPolicyStore } from './application/sla-stores.js';
import { CalendarsController } from './http/calendars.controller.js';
import { SlaPoliciesController } from './http/sla-policies.controller.js';
import { PostgresCalendarStore } from './infrastructure/postgres-calendar-store.js';
import { PostgresSlaPolicyStore } from './infrastructure/postgres-sla-policy-store.js';

/** Service levels (sla.md): business-hours calendars, SLA policies per workflow, and the clocks they give a case. */
@Module({
  imports: [TokensModule, WorkflowsModule],
  controllers: [CalendarsController, SlaPoliciesController],
  providers: [CalendarsService, SlaPoliciesService, { provide: CalendarStore, useClass: PostgresCalendarStore }, { provide: SlaPolicyStore, useClass: PostgresSlaPolicyStore }],
})
export class SlaModule {}

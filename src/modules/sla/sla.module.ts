import { type DynamicModule, Module } from '@nestjs/common';
import type { Env } from '../../shared/config/env.js';
import { CasesModule } from '../cases/cases.module.js';
import { SlaTimerPurges } from '../retention/application/retention.ports.js';
import { TokensModule } from '../tokens/tokens.module.js';
import { WorkflowsModule } from '../workflows/workflows.module.js';
import { CaseHistories } from './application/case-histories.js';
import { CaseSlaService } from './application/case-sla.service.js';
import { CalendarsService } from './application/calendars.service.js';
import { SlaPoliciesService } from './application/sla-policies.service.js';
import { CalendarStore, SlaPolicyStore, SlaSweepStore, SlaTimerStore } from './application/sla-stores.js';
import { SlaReportService } from './application/sla-report.service.js';
import { SlaSweep } from './application/sla-sweep.service.js';
import { CalendarsController } from './http/calendars.controller.js';
import { SlaPoliciesController } from './http/sla-policies.controller.js';
import { SlaReportController } from './http/sla-report.controller.js';
import { PostgresCalendarStore } from './infrastructure/postgres-calendar-store.js';
import { PostgresSlaPolicyStore } from './infrastructure/postgres-sla-policy-store.js';
import { PostgresSlaSweepStore, PostgresSlaTimers } from './infrastructure/postgres-sla-timers.js';
import { SlaSweepSchedule } from './infrastructure/sla-sweep-schedule.service.js';
import { SlaSweepMetrics } from './infrastructure/sla-sweep.metrics.js';
import { SlaCaseServiceLevels } from './infrastructure/sla-case-service-levels.js';
import { PostgresSlaTimerPurges } from './infrastructure/postgres-sla-timer-purges.js';

/**
 * Service levels (sla.md): business-hours calendars and SLA policies per workflow everywhere;
 * the sweep that keeps and fires the cases' SLA timers in worker roles only.
 */
@Module({})
export class SlaModule {
  static forRoot(env: Env): DynamicModule {
    const worker = env.ROLE !== 'api';
    return {
      module: SlaModule,
      imports: [TokensModule, WorkflowsModule, CasesModule],
      controllers: [CalendarsController, SlaPoliciesController, SlaReportController],
      providers: [
        CalendarsService,
        SlaPoliciesService,
        { provide: CalendarStore, useClass: PostgresCalendarStore },
        { provide: SlaPolicyStore, useClass: PostgresSlaPolicyStore },
        CaseHistories,
        CaseSlaService,
        SlaReportService,
        SlaCaseServiceLevels,
        SlaSweep,
        { provide: SlaSweepStore, useClass: PostgresSlaSweepStore },
        { provide: SlaTimerStore, useClass: PostgresSlaTimers },
        { provide: SlaTimerPurges, useClass: PostgresSlaTimerPurges },
        ...(worker ? [SlaSweepSchedule, SlaSweepMetrics] : []),
      ],
      exports: [CaseSlaService],
    };
  }
}

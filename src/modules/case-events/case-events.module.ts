import { BullModule } from '@nestjs/bull';
import { type DynamicModule, Module, type OnModuleInit } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import type { Env } from '../../shared/config/env.js';
import { CasesModule } from '../cases/cases.module.js';
import { CaseStatementParts } from '../cases/domain/case-statement-parts.js';
import { CaseEventDispatcher } from './application/case-event-dispatcher.js';
import { CaseEventListenerRegistry } from './application/case-event-listener.registry.js';
import { ListenerHandlings, ListenerMetrics } from './domain/listener-handlings.js';
import { CaseEventMetrics } from './infrastructure/case-event.metrics.js';
import { CaseEventRelay } from './infrastructure/case-event-relay.service.js';
import { caseEventStatementPart } from './infrastructure/case-event-statement-part.js';
import { CASE_EVENTS_QUEUE } from './infrastructure/case-events.queue.js';
import { ListenerHandlingRepository } from './infrastructure/listener-handling.repository.js';
import { ListenerRegistration } from './infrastructure/listener-registration.service.js';

/**
 * Case-event listeners (extension API: `@CaseEventListener()`): their registry and registration
 * everywhere; handing their events to Bull and running them in worker roles. The events are
 * written by the statements that store a case, with this module's statement part.
 */
@Module({})
export class CaseEventsModule implements OnModuleInit {
  constructor(private readonly parts: CaseStatementParts, private readonly listeners: CaseEventListenerRegistry) {}

  /**
   * After the registry found its listeners (a module's own hook runs after its providers'). The
   * part halves what Postgres can do of the intake statement (its table and four indexes are
   * opened on every execution, rows or not; docs/architecture.md, decision record 4), so a
   * deployment without listeners does not pay for it. Every instance runs the same extensions
   * (one image, one EXTENSIONS), so the instances that store changes write the events their
   * peers' listeners want.
   */
  onModuleInit(): void {
    if (this.listeners.names().length > 0) this.parts.add(caseEventStatementPart);
  }

  static forRoot(env: Env): DynamicModule {
    const worker = env.ROLE !== 'api';
    return {
      module: CaseEventsModule,
      imports: [DiscoveryModule, BullModule.registerQueue({ name: CASE_EVENTS_QUEUE }), CasesModule],
      providers: [
        CaseEventListenerRegistry,
        ListenerHandlingRepository,
        ListenerRegistration,
        ...(worker
          ? [
              { provide: ListenerHandlings, useExisting: ListenerHandlingRepository },
              { provide: ListenerMetrics, useClass: CaseEventMetrics },
              CaseEventDispatcher,
              CaseEventRelay,
            ]
          : []),
      ],
    };
  }
}

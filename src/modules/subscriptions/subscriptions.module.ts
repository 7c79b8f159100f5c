import { BullModule } from '@nestjs/bull';
import { type DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { Env } from '../../shared/config/env.js';
import { CasesModule } from '../cases/cases.module.js';
import { CaseStatementParts } from '../cases/domain/case-statement-parts.js';
import { DeliveryPurges } from '../retention/application/retention.ports.js';
import { TokensModule } from '../tokens/tokens.module.js';
import { WorkflowsModule } from '../workflows/workflows.module.js';
import { DeliverySender } from './application/delivery-sender.service.js';
import { DeliveryLog, SubscriptionStore } from './application/subscription-stores.js';
import { SubscriptionsService } from './application/subscriptions.service.js';
import { SubscriptionsController } from './http/subscriptions.controller.js';
import { DELIVERIES_QUEUE } from './infrastructure/deliveries.queue.js';
import { DeliveryRelay } from './infrastructure/delivery-relay.service.js';
import { DeliveryAttempts } from './domain/delivery-attempts.js';
import { outboxStatementPart } from './infrastructure/case-outbox.sql.js';
import { PostgresDeliveryPurges } from './infrastructure/postgres-delivery-purges.js';
import { DeliveryRepository } from './infrastructure/delivery.repository.js';
import { PostgresDeliveryLog } from './infrastructure/postgres-delivery-log.js';
import { SubscriptionOrmEntity } from './infrastructure/subscription.orm-entity.js';
import { TypeOrmSubscriptionStore } from './infrastructure/typeorm-subscription-store.js';

/**
 * Event subscriptions: the admin API everywhere; delivery (relay and sender) in worker roles.
 * Events are written by the statements that store a case, with the outbox's part.
 */
@Module({})
export class SubscriptionsModule {
  constructor(parts: CaseStatementParts) {
    parts.add(outboxStatementPart);
  }

  static forRoot(env: Env): DynamicModule {
    const worker = env.ROLE !== 'api';
    return {
      module: SubscriptionsModule,
      imports: [TypeOrmModule.forFeature([SubscriptionOrmEntity]), BullModule.registerQueue({ name: DELIVERIES_QUEUE }), CasesModule, TokensModule, WorkflowsModule],
      controllers: [SubscriptionsController],
      providers: [
        SubscriptionsService,
        { provide: SubscriptionStore, useClass: TypeOrmSubscriptionStore },
        { provide: DeliveryLog, useClass: PostgresDeliveryLog },
        { provide: DeliveryPurges, useClass: PostgresDeliveryPurges },
        ...(worker ? [DeliveryRepository, { provide: DeliveryAttempts, useExisting: DeliveryRepository }, DeliverySender, DeliveryRelay] : []),
      ],
    };
  }
}

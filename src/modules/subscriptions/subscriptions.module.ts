import { BullModule } from '@nestjs/bull';
import { type DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { Env } from '../../shared/config/env.js';
import { TokensModule } from '../tokens/tokens.module.js';
import { WorkflowsModule } from '../workflows/workflows.module.js';
import { DeliverySender } from './application/delivery-sender.service.js';
import { SubscriptionsService } from './application/subscriptions.service.js';
import { SubscriptionsController } from './http/subscriptions.controller.js';
import { DELIVERIES_QUEUE } from './infrastructure/deliveries.queue.js';
import { DeliveryRelay } from './infrastructure/delivery-relay.service.js';
import { DeliveryAttempts } from './domain/delivery-attempts.js';
import { DeliveryRepository } from './infrastructure/delivery.repository.js';
import { SubscriptionOrmEntity } from './infrastructure/subscription.orm-entity.js';

/**
 * Event subscriptions: the admin API everywhere; delivery (relay and sender) in worker roles.
 * Events themselves are written by the cases repository, in the transaction of each change.
 */
@Module({})
export class SubscriptionsModule {
  static forRoot(env: Env): DynamicModule {
    const worker = env.ROLE !== 'api';
    return {
      module: SubscriptionsModule,
      imports: [TypeOrmModule.forFeature([SubscriptionOrmEntity]), BullModule.registerQueue({ name: DELIVERIES_QUEUE }), TokensModule, WorkflowsModule],
      controllers: [SubscriptionsController],
      providers: [
        SubscriptionsService,
        ...(worker ? [DeliveryRepository, { provide: DeliveryAttempts, useExisting: DeliveryRepository }, DeliverySender, DeliveryRelay] : []),
      ],
    };
  }
}

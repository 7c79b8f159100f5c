import { BullModule } from '@nestjs/bull';
import { type DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { Env } from '../../shared/config/env.js';
import { TokensModule } from '../tokens/tokens.module.js';
import { WorkflowsModule } from '../workflows/workflows.module.js';
import { DELIVERIES_QUEUE } from './deliveries.queue.js';
import { DeliveryRelay } from './delivery-relay.service.js';
import { DeliveryRepository } from './delivery.repository.js';
import { DeliverySender } from './delivery-sender.service.js';
import { SubscriptionOrmEntity } from './subscription.orm-entity.js';
import { SubscriptionsController } from './subscriptions.controller.js';
import { SubscriptionsService } from './subscriptions.service.js';

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
        ...(worker
          ? [DeliveryRepository, DeliverySender, DeliveryRelay]
          : []),
      ],
    };
  }
}

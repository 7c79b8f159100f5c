import { InjectQueue } from '@nestjs/bull';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Job, Queue } from 'bull';
import { Env } from '../../../shared/config/env.js';
import { LOGGER, type Logger } from '../../../shared/logging/logger.js';
import { LOST_JOB_GRACE_MS, Relay } from '../../../shared/queue/relay.js';
import { DELIVER_JOB, type DeliverJob, deliverJobOptions, DELIVERIES_QUEUE } from './deliveries.queue.js';
import { DeliveryRepository } from './delivery.repository.js';
import { DeliverySender } from '../application/delivery-sender.service.js';

const BATCH = 200;

/**
 * In worker roles: hands due deliveries (in order per case and subscription) to Bull (see
 * Relay) and sends them. Nothing is lost while Redis or the subscriber is down: the delivery
 * stays pending in Postgres and is taken again.
 */
@Injectable()
export class DeliveryRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly relay: Relay<{ id: number; attempts: number }>;

  constructor(
    deliveries: DeliveryRepository,
    private readonly sender: DeliverySender,
    private readonly env: Env,
    @InjectQueue(DELIVERIES_QUEUE) private readonly queue: Queue,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.relay = new Relay(
      'delivery relay',
      {
        takeNew: (limit) => deliveries.takeNew(limit),
        takeExpired: (limit) => deliveries.takeExpired(limit),
        takeStale: (limit, graceMs) => deliveries.takeStale(limit, graceMs),
        untake: (due) => deliveries.untake(due.map((d) => d.id)),
        job: (d) => ({ name: DELIVER_JOB, data: { deliveryId: d.id }, opts: deliverJobOptions(d.id, d.attempts) }),
      },
      queue,
      BATCH,
      LOST_JOB_GRACE_MS,
      logger,
    );
  }

  onApplicationBootstrap(): void {
    this.queue
      .process(DELIVER_JOB, this.env.WORKER_CONCURRENCY, (job: Job<DeliverJob>) => this.sender.deliver(job.data.deliveryId))
      .catch((err: unknown) => this.logger.error({ err: String(err) }, 'delivery worker stopped'));
    this.relay.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.relay.stop();
  }
}

import { InjectQueue } from '@nestjs/bull';
import { Inject, Injectable } from '@nestjs/common';
import type { Queue } from 'bull';
import { Env } from '../../../shared/config/env.js';
import { LOGGER, type Logger } from '../../../shared/logging/logger.js';
import { RelayWorker } from '../../../shared/queue/relay-worker.js';
import { DELIVER_JOB, type DeliverJob, deliverJobOptions, DELIVERIES_QUEUE } from './deliveries.queue.js';
import { DeliveryRepository } from './delivery.repository.js';
import { DeliverySender } from '../application/delivery-sender.service.js';

/**
 * In worker roles: hands due deliveries (in order per case and subscription) to Bull (see
 * Relay) and sends them. Nothing is lost while Redis or the subscriber is down: the delivery
 * stays pending in Postgres and is taken again.
 */
@Injectable()
export class DeliveryRelay extends RelayWorker<{ id: number; attempts: number }, DeliverJob> {
  constructor(
    deliveries: DeliveryRepository,
    sender: DeliverySender,
    env: Env,
    @InjectQueue(DELIVERIES_QUEUE) queue: Queue,
    @Inject(LOGGER) logger: Logger,
  ) {
    super({
      name: 'delivery',
      source: {
        takeNew: (limit) => deliveries.takeNew(limit),
        takeExpired: (limit) => deliveries.takeExpired(limit),
        takeStale: (limit, graceMs) => deliveries.takeStale(limit, graceMs),
        untake: (due) => deliveries.untake(due.map((d) => d.id)),
        job: (d) => ({ name: DELIVER_JOB, data: { deliveryId: d.id }, opts: deliverJobOptions(d.id, d.attempts) }),
      },
      queue,
      batch: 200,
      job: DELIVER_JOB,
      concurrency: env.WORKER_CONCURRENCY,
      run: (job) => sender.deliver(job.deliveryId),
      logger,
    });
  }
}

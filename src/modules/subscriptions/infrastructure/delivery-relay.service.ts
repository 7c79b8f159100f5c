import { InjectQueue } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bull';
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
export class DeliveryRelay extends RelayWorker<{ id: number; attempts: number }, number, DeliverJob> {
  constructor(
    deliveries: DeliveryRepository,
    sender: DeliverySender,
    @InjectQueue(DELIVERIES_QUEUE) queue: Queue,
  ) {
    super({
      name: 'delivery',
      store: deliveries,
      key: (d) => d.id,
      toJob: (d) => ({ name: DELIVER_JOB, data: { deliveryId: d.id }, opts: deliverJobOptions(d.id, d.attempts) }),
      queue,
      batch: 200,
      job: DELIVER_JOB,
      run: (job) => sender.deliver(job.deliveryId),
    });
  }
}

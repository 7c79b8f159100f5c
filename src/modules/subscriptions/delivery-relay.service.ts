import { InjectQueue } from '@nestjs/bull';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Job, Queue } from 'bull';
import { Env } from '../../shared/config/env.js';
import { LOGGER, type Logger } from '../../shared/logging/logger.js';
import { PollingLoop } from '../../shared/queue/polling-loop.js';
import { DELIVER_JOB, type DeliverJob, deliverJobOptions, DELIVERIES_QUEUE } from './deliveries.queue.js';
import { DeliveryRepository } from './delivery.repository.js';
import { DeliverySender } from './delivery-sender.service.js';

const BATCH = 200;
const REENQUEUE_AFTER_MS = 60_000;

/**
 * In worker roles: hands due deliveries (in order per case and subscription) to Bull and
 * sends them. Nothing is lost while Redis or the subscriber is down: the delivery stays
 * pending in Postgres and is taken again.
 */
@Injectable()
export class DeliveryRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly loop: PollingLoop;

  constructor(
    private readonly deliveries: DeliveryRepository,
    private readonly sender: DeliverySender,
    private readonly env: Env,
    @InjectQueue(DELIVERIES_QUEUE) private readonly queue: Queue,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.loop = new PollingLoop('delivery relay', () => this.relayOnce(), BATCH, logger);
  }

  onApplicationBootstrap(): void {
    this.queue
      .process(DELIVER_JOB, this.env.WORKER_CONCURRENCY, (job: Job<DeliverJob>) => this.sender.deliver(job.data.deliveryId))
      .catch((err: unknown) => this.logger.error({ err: String(err) }, 'delivery worker stopped'));
    this.loop.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.loop.stop();
  }

  async relayOnce(): Promise<number> {
    const due = await this.deliveries.takeDue(BATCH, REENQUEUE_AFTER_MS);
    if (!due.length) return 0;
    try {
      await this.queue.addBulk(due.map((d) => ({ name: DELIVER_JOB, data: { deliveryId: d.id }, opts: deliverJobOptions(d.id, d.attempts) })));
    } catch (err) {
      await this.deliveries.untake(due.map((d) => d.id));
      throw err;
    }
    return due.length;
  }
}

import { InjectQueue } from '@nestjs/bull';
import { type BeforeApplicationShutdown, Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { Queue } from 'bull';
import { Env } from '../../../shared/config/env.js';
import { LOGGER, type Logger } from '../../../shared/logging/logger.js';
import { RepeatableJob } from '../../../shared/queue/repeatable-job.js';
import { PurgePass } from '../application/purge-pass.service.js';
import { PURGE_JOB, RETENTION_QUEUE } from './purge.queue.js';

/**
 * In worker roles: runs the purge passes the retention queue hands out, one at a time per
 * process, and keeps the repeatable job that schedules them in Redis (see RepeatableJob).
 * Redis holds nothing that cannot be rebuilt.
 */
@Injectable()
export class PurgeSchedule implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly job: RepeatableJob;

  constructor(@InjectQueue(RETENTION_QUEUE) queue: Queue, private readonly pass: PurgePass, env: Env, @Inject(LOGGER) logger: Logger) {
    this.job = new RepeatableJob(queue, PURGE_JOB, env.RETENTION_PURGE_INTERVAL_MS, 'retention purge', logger);
  }

  onApplicationBootstrap(): void {
    this.job.start(() => this.pass.run());
  }

  /** A pass under way ends after its batch, so the queue can close within the shutdown grace. */
  beforeApplicationShutdown(): void {
    this.job.stop();
    this.pass.stop();
  }
}

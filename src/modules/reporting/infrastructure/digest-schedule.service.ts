import { InjectQueue } from '@nestjs/bull';
import { type BeforeApplicationShutdown, Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { Queue } from 'bull';
import { Env } from '../../../shared/config/env.js';
import { LOGGER, type Logger } from '../../../shared/logging/logger.js';
import { RepeatableJob } from '../../../shared/queue/repeatable-job.js';
import { DigestPass } from '../application/digest-pass.service.js';

export const DIGEST_QUEUE = 'digests';
const DIGEST_JOB = 'digest-pass';

/**
 * In worker roles: runs the digest passes the queue hands out (one at a time per process) and
 * keeps their repeatable job in Redis (see RepeatableJob). Redis only paces the passes: which
 * period goes out, and that it goes out once, is in Postgres.
 */
@Injectable()
export class DigestSchedule implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly job: RepeatableJob;

  constructor(@InjectQueue(DIGEST_QUEUE) queue: Queue, private readonly pass: DigestPass, env: Env, @Inject(LOGGER) logger: Logger) {
    this.job = new RepeatableJob(queue, DIGEST_JOB, env.DIGEST_CHECK_INTERVAL_MS, 'digest', logger);
  }

  onApplicationBootstrap(): void {
    this.job.start(() => this.pass.run());
  }

  beforeApplicationShutdown(): void {
    this.job.stop();
  }
}

import { InjectQueue } from '@nestjs/bull';
import { type BeforeApplicationShutdown, Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { Job, Queue } from 'bull';
import { LOGGER, type Logger } from '../../../shared/logging/logger.js';
import { LOST_JOB_GRACE_MS, Relay } from '../../../shared/queue/relay.js';
import { BulkJobRunner } from '../application/bulk-job-runner.js';
import { type BulkJobRef, BulkJobStore } from '../application/bulk-job-store.js';
import { BULK_JOBS_QUEUE, RUN_BULK_JOB, runBulkJobOptions } from './bulk-jobs.queue.js';

const BATCH = 20;
/**
 * Bulk jobs one worker process runs at once. A chunk's transaction may ask the pool for a second
 * connection (a workflow version not yet cached) while holding its first: fewer of them than the
 * pool has connections can never hold them all waiting. Each runs for as long as its cases take,
 * so a few at a time also leave the pool to runs and deliveries.
 */
const BULK_JOBS_AT_ONCE = 2;

/**
 * In worker roles: hands accepted bulk jobs to Bull as soon as they are committed (see Relay),
 * and again when their worker died (lease run out) or their queue job was lost, and runs them.
 * Postgres holds each job and its cases, so nothing is lost while Redis or every process is down.
 */
@Injectable()
export class BulkJobRelay implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly relay: Relay<BulkJobRef>;

  constructor(
    jobs: BulkJobStore,
    private readonly runner: BulkJobRunner,
    @InjectQueue(BULK_JOBS_QUEUE) private readonly queue: Queue,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.relay = new Relay(
      'bulk job relay',
      {
        takeNew: (limit) => jobs.takeNew(limit),
        takeExpired: (limit) => jobs.takeExpired(limit),
        takeStale: (limit, graceMs) => jobs.takeStale(limit, graceMs),
        untake: (refs) => jobs.untake(refs),
        job: (ref) => ({ name: RUN_BULK_JOB, data: ref, opts: runBulkJobOptions(ref) }),
      },
      queue,
      BATCH,
      LOST_JOB_GRACE_MS,
      logger,
    );
  }

  onApplicationBootstrap(): void {
    this.queue
      .process(RUN_BULK_JOB, BULK_JOBS_AT_ONCE, (job: Job<BulkJobRef>) => this.runner.run(job.data))
      .catch((err: unknown) => this.logger.error({ err: String(err) }, 'bulk job worker stopped'));
    this.relay.start();
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.relay.stop();
  }
}

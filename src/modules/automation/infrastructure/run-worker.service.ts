import { InjectQueue } from '@nestjs/bull';
import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { Job, Queue } from 'bull';
import { Env } from '../../../shared/config/env.js';
import { LOGGER, type Logger } from '../../../shared/logging/logger.js';
import { AUTOMATION_QUEUE, RUN_JOB, type RunJob } from './automation.queue.js';
import { RunExecutor } from '../application/run-executor.service.js';

/** Consumes run jobs with WORKER_CONCURRENCY parallel runs per process (worker roles only). */
@Injectable()
export class RunWorker implements OnApplicationBootstrap {
  constructor(
    private readonly executor: RunExecutor,
    private readonly env: Env,
    @InjectQueue(AUTOMATION_QUEUE) private readonly queue: Queue,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    this.queue
      .process(RUN_JOB, this.env.WORKER_CONCURRENCY, (job: Job<RunJob>) => this.executor.execute(job.data))
      .catch((err: unknown) => this.logger.error({ err: String(err) }, 'run worker stopped'));
  }
}

import { InjectQueue } from '@nestjs/bull';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Queue } from 'bull';
import { LOGGER, type Logger } from '../../../shared/logging/logger.js';
import { LOST_JOB_GRACE_MS, Relay } from '../../../shared/queue/relay.js';
import { AUTOMATION_QUEUE, RUN_JOB, runJobOptions } from './automation.queue.js';
import { type DueRun, RunQueue } from '../../cases/domain/run-queue.js';

const BATCH = 500;
/** A run marked enqueued that has not started after this long is enqueued again (runs a dead worker held do not wait for this: see Relay). */
export const REENQUEUE_AFTER_MS = LOST_JOB_GRACE_MS;

/**
 * Hands runs to the automation queue (see Relay): new ones as soon as they are written, and
 * again those whose job was lost (Redis restarted, a worker died, a delayed job vanished).
 */
@Injectable()
export class RunRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly relay: Relay<DueRun>;

  constructor(runs: RunQueue, @InjectQueue(AUTOMATION_QUEUE) queue: Queue, @Inject(LOGGER) logger: Logger) {
    this.relay = new Relay<DueRun>(
      'run relay',
      {
        takeNew: (limit) => runs.takeNew(limit),
        takeExpired: (limit) => runs.takeExpired(limit),
        takeStale: (limit, graceMs) => runs.takeStale(limit, graceMs),
        untake: (due) => runs.untake(due.map((run) => run.runId)),
        job: ({ runId, caseId, workflowId, workflowVersion, ...run }) => ({
          name: RUN_JOB,
          data: { runId, caseId, workflowId, workflowVersion },
          opts: runJobOptions(runId, jobKey(run)),
        }),
      },
      queue,
      BATCH,
      REENQUEUE_AFTER_MS,
      logger,
    );
  }

  onApplicationBootstrap(): void {
    this.relay.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.relay.stop();
  }
}

/** A run taken over from a dead worker needs a new job id: Bull still holds the old job as active. */
function jobKey(run: Pick<DueRun, 'state' | 'attempts' | 'resumeAt'>): string {
  if (run.state === 'running') return `takeover-${run.attempts}`;
  if (run.state === 'waiting') return `resume-${run.resumeAt!.getTime()}`;
  return 'start';
}

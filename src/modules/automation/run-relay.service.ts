import { InjectQueue } from '@nestjs/bull';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Queue } from 'bull';
import { LOGGER, type Logger } from '../../shared/logging/logger.js';
import { PollingLoop } from '../../shared/queue/polling-loop.js';
import { AUTOMATION_QUEUE, RUN_JOB, runJobOptions } from './automation.queue.js';
import { type DueRun, RunRepository } from './run.repository.js';

const BATCH = 500;
/** A run marked enqueued that has not started after this long is enqueued again (its job was lost). */
export const REENQUEUE_AFTER_MS = 15_000;

/**
 * Moves runs from Postgres to the queue. Intake only writes a pending run in the case's own
 * transaction (no Redis on the request path); the relay, in every worker, hands pending runs
 * to Bull in batches, and re-enqueues runs whose job was lost (Redis restarted, a worker died,
 * a delayed job vanished). Job ids make a repeat harmless, and claiming a run is exclusive.
 */
@Injectable()
export class RunRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly loop: PollingLoop;

  constructor(
    private readonly runs: RunRepository,
    @InjectQueue(AUTOMATION_QUEUE) private readonly queue: Queue,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.loop = new PollingLoop('run relay', () => this.relayOnce(), BATCH, logger);
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.loop.stop();
  }

  /** One pass; returns how many runs it handed to the queue. */
  async relayOnce(): Promise<number> {
    const due = await this.runs.takeDue(BATCH, REENQUEUE_AFTER_MS);
    if (!due.length) return 0;
    const jobs = due.map(({ runId, caseId, workflowId, workflowVersion, ...run }) => ({
      name: RUN_JOB,
      data: { runId, caseId, workflowId, workflowVersion },
      opts: runJobOptions(runId, jobKey(run)),
    }));
    try {
      await this.queue.addBulk(jobs);
    } catch (err) {
      await this.runs.untake(due.map((run) => run.runId));
      throw err;
    }
    return due.length;
  }
}

/** A run taken over from a dead worker needs a new job id: Bull still holds the old job as active. */
function jobKey(run: Pick<DueRun, 'state' | 'attempts' | 'resumeAt'>): string {
  if (run.state === 'running') return `takeover-${run.attempts}`;
  if (run.state === 'waiting') return `resume-${run.resumeAt!.getTime()}`;
  return 'start';
}

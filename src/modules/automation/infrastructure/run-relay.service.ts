import { InjectQueue } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bull';
import { LOST_JOB_GRACE_MS } from '../../../shared/queue/relay.js';
import { RelayWorker } from '../../../shared/queue/relay-worker.js';
import { AUTOMATION_QUEUE, RUN_JOB, type RunJob, runJobOptions } from './automation.queue.js';
import { RunExecutor } from '../application/run-executor.service.js';
import { type DueRun, RunQueue } from '../../cases/domain/run-queue.js';

/** A run marked enqueued that has not started after this long is enqueued again (runs a dead worker held do not wait for this: see Relay). */
export const REENQUEUE_AFTER_MS = LOST_JOB_GRACE_MS;

/**
 * In worker roles: hands runs to the automation queue (see Relay), new ones as soon as they are
 * written and again those whose job was lost (Redis restarted, a worker died, a delayed job
 * vanished), and executes them, WORKER_CONCURRENCY runs at a time per process.
 */
@Injectable()
export class RunRelay extends RelayWorker<DueRun, number, RunJob> {
  constructor(runs: RunQueue, executor: RunExecutor, @InjectQueue(AUTOMATION_QUEUE) queue: Queue) {
    super({
      name: 'run',
      store: runs,
      key: (run) => run.runId,
      toJob: ({ runId, caseId, workflowId, workflowVersion, ...run }) => ({
        name: RUN_JOB,
        data: { runId, caseId, workflowId, workflowVersion },
        opts: runJobOptions(runId, jobKey(run)),
      }),
      queue,
      batch: 500,
      job: RUN_JOB,
      run: (job) => executor.execute(job),
    });
  }
}

/** A run taken over from a dead worker needs a new job id: Bull still holds the old job as active. */
function jobKey(run: Pick<DueRun, 'state' | 'attempts' | 'resumeAt'>): string {
  if (run.state === 'running') return `takeover-${run.attempts}`;
  if (run.state === 'waiting') return `resume-${run.resumeAt!.getTime()}`;
  return 'start';
}

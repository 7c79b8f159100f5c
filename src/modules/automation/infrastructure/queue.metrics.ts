import { InjectQueue } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bull';
import { Gauge } from 'prom-client';
import { MetricsRegistry } from '../../../shared/metrics/metrics.module.js';
import { RunQueue } from '../../cases/domain/run-queue.js';
import { AUTOMATION_QUEUE } from './automation.queue.js';

/** Queue depth and backlog age, read when Prometheus scrapes (every role can report them). */
@Injectable()
export class QueueMetrics {
  constructor(registry: MetricsRegistry, @InjectQueue(AUTOMATION_QUEUE) queue: Queue, runs: RunQueue) {
    new Gauge({
      name: 'automation_queue_jobs',
      help: 'Jobs in the automation queue, by state',
      labelNames: ['state'],
      registers: [registry],
      async collect() {
        const counts = await queue.getJobCounts().catch(() => undefined);
        for (const [state, value] of Object.entries(counts ?? {})) this.set({ state }, value);
      },
    });
    new Gauge({
      name: 'workflow_runs_oldest_pending_seconds',
      help: 'Age of the oldest run not yet started (the queue lag)',
      registers: [registry],
      async collect() {
        this.set(await runs.oldestPendingAgeSeconds().catch(() => 0));
      },
    });
  }
}

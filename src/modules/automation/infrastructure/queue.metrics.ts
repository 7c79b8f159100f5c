import { InjectQueue } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Queue } from 'bull';
import { Gauge } from 'prom-client';
import type { DataSource } from 'typeorm';
import { MetricsRegistry } from '../../../shared/metrics/metrics.module.js';
import { AUTOMATION_QUEUE } from './automation.queue.js';

/** Queue depth and backlog age, read when Prometheus scrapes (every role can report them). */
@Injectable()
export class QueueMetrics {
  constructor(registry: MetricsRegistry, @InjectQueue(AUTOMATION_QUEUE) queue: Queue, @InjectDataSource() dataSource: DataSource) {
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
        const rows = (await dataSource
          .query(`SELECT extract(epoch FROM now() - created_at)::float AS age FROM workflow_runs WHERE state = 'pending' ORDER BY id LIMIT 1`)
          .catch(() => [{ age: 0 }])) as { age: number }[];
        this.set(rows[0]?.age ?? 0);
      },
    });
  }
}

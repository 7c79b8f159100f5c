import { Injectable } from '@nestjs/common';
import { Counter, Histogram } from 'prom-client';
import { MetricsRegistry } from '../../../shared/metrics/metrics.module.js';
import type { Run } from '../../cases/domain/run.js';
import { RunMetrics } from '../application/run-engine.ports.js';

/**
 * Run counters. Business figures count live runs only; test runs are counted apart
 * (`mode="test"`) so dashboards and billing never mix them.
 */
@Injectable()
export class AutomationMetrics implements RunMetrics {
  private readonly started: Counter<'mode'>;
  private readonly finished: Counter<'mode' | 'state'>;
  private readonly lag: Histogram<'mode'>;

  constructor(registry: MetricsRegistry) {
    this.started = new Counter({ name: 'workflow_runs_started_total', help: 'Runs that began executing', labelNames: ['mode'], registers: [registry] });
    this.finished = new Counter({ name: 'workflow_runs_finished_total', help: 'Runs finished, by final state (succeeded or failed; see workflow_runs_superseded_total)', labelNames: ['mode', 'state'], registers: [registry] });
    this.lag = new Histogram({
      name: 'workflow_run_lag_seconds',
      help: 'Time from the status change that started a run to the run finishing',
      labelNames: ['mode'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300],
      registers: [registry],
    });
  }

  /** Counted on a run's first claim only, not when another worker takes it over. */
  runStarted(run: Run): void {
    if (run.attempts === 1) this.started.inc({ mode: run.mode });
  }

  runFinished(run: Run, state: 'succeeded' | 'failed'): void {
    this.finished.inc({ mode: run.mode, state });
    this.lag.observe({ mode: run.mode }, (Date.now() - run.createdAt.getTime()) / 1000);
  }
}

import { Injectable } from '@nestjs/common';
import { Counter, Histogram } from 'prom-client';
import { MetricsRegistry } from '../../../shared/metrics/metrics.module.js';
import type { FiredTimer } from '../application/sla-stores.js';

/**
 * What an operator watches of the SLA sweep: how long its passes take (almost all of it database
 * time, docs/benchmarks.md, "The SLA sweep at size") and how late its warnings and breaches fire
 * against sla.md's 5 s.
 */
@Injectable()
export class SlaSweepMetrics {
  private readonly passes: Histogram;
  private readonly fired: Counter<'kind'>;
  private readonly lateness: Histogram<'kind'>;

  constructor(registry: MetricsRegistry) {
    this.passes = new Histogram({
      name: 'sla_sweep_pass_seconds',
      help: 'Duration of one SLA sweep pass of this process (tracking changed cases, then firing due timers)',
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    });
    this.fired = new Counter({ name: 'sla_timers_fired_total', help: 'SLA warnings and breaches fired by this process', labelNames: ['kind'], registers: [registry] });
    this.lateness = new Histogram({
      name: 'sla_timer_lateness_seconds',
      help: 'How long after its time an SLA warning or breach fired',
      labelNames: ['kind'],
      buckets: [0.25, 0.5, 1, 2, 5, 10, 30, 60, 300],
      registers: [registry],
    });
  }

  passed(seconds: number, fired: readonly FiredTimer[]): void {
    this.passes.observe(seconds);
    for (const timer of fired) {
      this.fired.inc({ kind: timer.kind });
      this.lateness.observe({ kind: timer.kind }, Math.max(0, timer.firedAt.getTime() - timer.fireAt.getTime()) / 1000);
    }
  }
}

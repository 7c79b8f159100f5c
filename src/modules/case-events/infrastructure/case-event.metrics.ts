import { Injectable } from '@nestjs/common';
import { Counter } from 'prom-client';
import { MetricsRegistry } from '../../../shared/metrics/metrics.module.js';
import { ListenerMetrics } from '../domain/listener-handlings.js';

@Injectable()
export class CaseEventMetrics extends ListenerMetrics {
  private readonly handledTotal: Counter<'listener'>;
  private readonly failedTotal: Counter<'listener'>;

  constructor(registry: MetricsRegistry) {
    super();
    this.handledTotal = new Counter({ name: 'case_event_listener_handled_total', help: 'Case events a listener handled', labelNames: ['listener'], registers: [registry] });
    this.failedTotal = new Counter({
      name: 'case_event_listener_failed_total',
      help: 'Case events given up after a listener threw on every attempt',
      labelNames: ['listener'],
      registers: [registry],
    });
  }

  handled(listener: string): void {
    this.handledTotal.inc({ listener });
  }

  failedForGood(listener: string): void {
    this.failedTotal.inc({ listener });
  }
}

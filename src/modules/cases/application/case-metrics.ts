import { Injectable } from '@nestjs/common';
import { Counter } from 'prom-client';
import { MetricsRegistry } from '../../../shared/metrics/metrics.module.js';
import type { CaseMode, CaseSource } from '../domain/case.js';

/** Cases created, by source. Live traffic only: test cases are excluded from metrics. */
@Injectable()
export class CaseMetrics {
  private readonly created: Counter<'source'>;

  constructor(registry: MetricsRegistry) {
    this.created = new Counter({ name: 'cases_created_total', help: 'Live cases created, by source (API or Webhook)', labelNames: ['source'], registers: [registry] });
  }

  caseCreated(source: CaseSource, mode: CaseMode): void {
    if (mode === 'live') this.created.inc({ source });
  }
}

import { Injectable } from '@nestjs/common';
import { Counter } from 'prom-client';
import { MetricsRegistry } from '../../../shared/metrics/metrics.module.js';
import type { IntakeMetrics } from '../application/intake-metrics.js';
import type { CaseMode, SourceType } from '../domain/case.js';

/**
 * Cases created by source (live traffic only: test cases are excluded from metrics), and runs
 * superseded, which happens in the statement that moves a case.
 */
@Injectable()
export class CaseMetrics implements IntakeMetrics {
  private readonly created: Counter<'source'>;
  private readonly superseded: Counter<'mode'>;

  constructor(registry: MetricsRegistry) {
    this.created = new Counter({ name: 'cases_created_total', help: 'Live cases created, by source type (API, Webhook, Email, Form or an extension\'s)', labelNames: ['source'], registers: [registry] });
    this.superseded = new Counter({ name: 'workflow_runs_superseded_total', help: 'Runs cancelled because their case left the status', labelNames: ['mode'], registers: [registry] });
  }

  caseCreated(source: SourceType, mode: CaseMode): void {
    if (mode === 'live') this.created.inc({ source });
  }

  runsSuperseded(mode: CaseMode, count: number): void {
    if (count > 0) this.superseded.inc({ mode }, count);
  }
}

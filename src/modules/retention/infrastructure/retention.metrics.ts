import { Injectable } from '@nestjs/common';
import { Counter } from 'prom-client';
import { MetricsRegistry } from '../../../shared/metrics/metrics.module.js';
import { type PurgedCounts, PURGED_KINDS, type PurgedKind, PurgeMetrics } from '../application/retention.ports.js';

/** `purged_rows_total` by kind, counted as each batch commits. */
@Injectable()
export class RetentionMetrics extends PurgeMetrics {
  private readonly purgedRows: Counter<'kind'>;

  constructor(registry: MetricsRegistry) {
    super();
    this.purgedRows = new Counter({ name: 'purged_rows_total', help: 'Rows deleted by the retention purge, by kind', labelNames: ['kind'], registers: [registry] });
    // Every kind is shown from the start, so a rate over it has a series before the first purge.
    for (const kind of PURGED_KINDS) this.purgedRows.inc({ kind }, 0);
  }

  purged(counts: PurgedCounts): void {
    for (const [kind, rows] of Object.entries(counts) as [PurgedKind, number][]) if (rows > 0) this.purgedRows.inc({ kind }, rows);
  }
}

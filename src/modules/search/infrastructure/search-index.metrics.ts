import { Injectable } from '@nestjs/common';
import { Counter } from 'prom-client';
import { MetricsRegistry } from '../../../shared/metrics/metrics.module.js';
import { SearchIndexMetrics } from '../application/search.ports.js';

/** `search_documents_refused_total`: a rise means cases are searchable by their subject only (docs/search.md). */
@Injectable()
export class PromSearchIndexMetrics extends SearchIndexMetrics {
  private readonly refused: Counter;

  constructor(registry: MetricsRegistry) {
    super();
    this.refused = new Counter({
      name: 'search_documents_refused_total',
      help: 'Case documents Postgres refused for their data, stored reduced to the subject by this process',
      registers: [registry],
    });
  }

  documentRefused(): void {
    this.refused.inc();
  }
}

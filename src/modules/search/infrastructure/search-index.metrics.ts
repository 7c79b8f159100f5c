import { Injectable } from '@nestjs/common';
import { Counter } from 'prom-client';
import { MetricsRegistry } from '../../../shared/metrics/metrics.module.js';
import { SearchIndexMetrics } from '../application/search.ports.js';

/**
 * `search_documents_refused_total`: a rise means cases are searchable by their subject only
 * (docs/search.md). `search_documents_unchanged_total`: changes the indexer followed without
 * building a document, their words being as stored.
 */
@Injectable()
export class PromSearchIndexMetrics extends SearchIndexMetrics {
  private readonly refused: Counter;
  private readonly unchanged: Counter;

  constructor(registry: MetricsRegistry) {
    super();
    this.refused = new Counter({
      name: 'search_documents_refused_total',
      help: 'Case documents Postgres refused for their data, stored reduced to the subject by this process',
      registers: [registry],
    });
    this.unchanged = new Counter({
      name: 'search_documents_unchanged_total',
      help: 'Changed cases whose search document this process left as stored, built from the same subject, attributes and messages',
      registers: [registry],
    });
  }

  documentRefused(): void {
    this.refused.inc();
  }

  documentsUnchanged(count: number): void {
    this.unchanged.inc(count);
  }
}

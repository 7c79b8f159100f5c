import { Injectable } from '@nestjs/common';
import { Counter, Gauge } from 'prom-client';
import { MetricsRegistry } from '../../../shared/metrics/metrics.module.js';
import { SearchIndexMetrics } from '../application/search.ports.js';

/**
 * `search_documents_refused_total`: a rise means cases are searchable by their subject only
 * (docs/search.md). `search_documents_unchanged_total`: changes the indexer followed without
 * building a document, their words being as stored. `search_indexer_held_back`: 1 while the
 * indexer makes at most one pass every 10 s because the workers are behind on automation runs or
 * intake is pressed, when search may lag by more than its 2 s (docs/search.md); it is 0 again with
 * the first pass after.
 */
@Injectable()
export class PromSearchIndexMetrics extends SearchIndexMetrics {
  private readonly refused: Counter;
  private readonly unchanged: Counter;
  private readonly held: Gauge;

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
    this.held = new Gauge({
      name: 'search_indexer_held_back',
      help: '1 while this process\'s search indexer makes at most one pass every 10 s, the workers being behind on automation runs or intake pressed',
      registers: [registry],
    });
  }

  documentRefused(): void {
    this.refused.inc();
  }

  documentsUnchanged(count: number): void {
    this.unchanged.inc(count);
  }

  heldBack(held: boolean): void {
    this.held.set(held ? 1 : 0);
  }
}

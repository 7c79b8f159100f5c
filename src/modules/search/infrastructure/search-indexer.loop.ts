import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { LOGGER, type Logger } from '../../../shared/logging/logger.js';
import { PollingLoop } from '../../../shared/queue/polling-loop.js';
import { INDEX_BATCH, SearchIndexer } from '../application/search-indexer.service.js';

/** Between passes that found little to do: with a pass's own time, well within the 2 s a case has to become searchable. */
const IDLE_MS = 200;

/** In worker roles: runs the indexer's passes, at once while they find full batches. */
@Injectable()
export class SearchIndexerLoop implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly loop: PollingLoop;

  constructor(indexer: SearchIndexer, @Inject(LOGGER) logger: Logger) {
    this.loop = new PollingLoop('search indexer', () => indexer.pass(), INDEX_BATCH, logger, IDLE_MS);
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.loop.stop();
  }
}

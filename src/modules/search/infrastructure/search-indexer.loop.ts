import { type BeforeApplicationShutdown, Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { LOGGER, type Logger } from '../../../shared/logging/logger.js';
import { ForegroundWork } from '../../../shared/queue/foreground-work.js';
import { PollingLoop } from '../../../shared/queue/polling-loop.js';
import { INDEX_BATCH, SearchIndexer } from '../application/search-indexer.service.js';
import { SearchIndexMetrics } from '../application/search.ports.js';

/** Between passes that found little to do: with a pass's own time, well within the 2 s a case has to become searchable. */
const IDLE_MS = 200;
/** Between passes while the workers are behind (ForegroundWork): at most INDEX_BATCH documents in this long, 50 a second. */
export const BEHIND_PASS_MS = 10_000;

/**
 * In worker roles: runs the indexer's passes, at once while they find full batches. While the
 * workers are behind (ForegroundWork: automation runs waiting, or intake pressed), a pass at most
 * every BEHIND_PASS_MS: a document costs Postgres about what a run's step or the intake of its case
 * does, and on shared cores the work people and senders wait for comes first. Search then lags and
 * catches up at once when that work is done (docs/search.md); the metrics say so meanwhile
 * (`search_indexer_held_back`).
 */
@Injectable()
export class SearchIndexerLoop implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly loop: PollingLoop;
  /** While the workers are behind: when the next pass may run. Once they are not, a pass runs at once. */
  private nextPassAt = 0;

  constructor(
    private readonly indexer: SearchIndexer,
    private readonly foreground: ForegroundWork,
    private readonly metrics: SearchIndexMetrics,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.loop = new PollingLoop('search indexer', () => this.pass(), INDEX_BATCH, logger, IDLE_MS);
  }

  /** A pass, unless the workers are behind and one ran less than BEHIND_PASS_MS ago (0: the loop waits IDLE_MS and asks again). */
  async pass(): Promise<number> {
    const behind = await this.foreground.behind();
    this.metrics.heldBack(behind);
    if (behind) {
      if (Date.now() < this.nextPassAt) return 0;
      this.nextPassAt = Date.now() + BEHIND_PASS_MS;
    }
    return this.indexer.pass();
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.loop.stop();
  }
}

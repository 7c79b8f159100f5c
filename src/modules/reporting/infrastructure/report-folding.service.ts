import { type BeforeApplicationShutdown, Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { LOGGER, type Logger } from '../../../shared/logging/logger.js';
import { PollingLoop } from '../../../shared/queue/polling-loop.js';
import { ReportFold } from '../application/case-report.ports.js';

const BATCH = 5000;
/** Reports read the changes not folded yet too: folding only keeps the log short, so it need not be prompt. */
const IDLE_MS = 1000;

/** In worker roles: folds the log of case changes into the report rollups (one fold at a time across workers). */
@Injectable()
export class ReportFolding implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly loop: PollingLoop;

  constructor(fold: ReportFold, @Inject(LOGGER) logger: Logger) {
    this.loop = new PollingLoop('report fold', () => fold.fold(BATCH), BATCH, logger, IDLE_MS);
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.loop.stop();
  }
}

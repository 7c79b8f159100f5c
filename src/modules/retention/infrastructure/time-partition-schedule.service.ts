import { type BeforeApplicationShutdown, Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { LOGGER, type Logger } from '../../../shared/logging/logger.js';
import { RetentionPurges } from '../application/retention.ports.js';

const DAY_MS = 86_400_000;

/**
 * In worker roles: has the owners of the time-partitioned tables keep the current month and
 * the next MONTHS_AHEAD created (RetentionPurges.createPartitionsAhead), at start and daily, so
 * rows land in their month and the default partition stays empty. Retention only asks: each
 * owner writes its own tables, DDL included. Several workers take the partition lock one after
 * the other; the later ones find every partition there.
 */
@Injectable()
export class TimePartitionSchedule implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private stopped = false;

  constructor(private readonly purges: RetentionPurges, @Inject(LOGGER) private readonly logger: Logger) {}

  onApplicationBootstrap(): void {
    void this.createAhead();
    this.timer = setInterval(() => void this.createAhead(), DAY_MS).unref();
  }

  /** A creation still running when the pool then closes fails with it, which is the stop, not news to log. */
  beforeApplicationShutdown(): void {
    this.stopped = true;
    clearInterval(this.timer);
  }

  /** How many partitions it created; a failure is logged and tried again the next day (the default partition takes the rows meanwhile). */
  async createAhead(): Promise<number> {
    try {
      const created = await this.purges.createPartitionsAhead();
      if (created) this.logger.info({ created }, 'time partitions created ahead');
      return created;
    } catch (err) {
      if (!this.stopped) this.logger.warn({ err: String(err) }, 'time partitions not created ahead; the default partitions take the rows until the next try');
      return 0;
    }
  }
}

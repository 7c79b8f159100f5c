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
  private creating?: Promise<unknown>;

  constructor(private readonly purges: RetentionPurges, @Inject(LOGGER) private readonly logger: Logger) {}

  onApplicationBootstrap(): void {
    this.createAheadOnce();
    this.timer = setInterval(() => this.createAheadOnce(), DAY_MS).unref();
  }

  /** The creation under way ends before the pool closes: failing with it, it would log a warning that is only the stop. */
  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.creating;
  }

  private createAheadOnce(): void {
    this.creating ??= this.createAhead().finally(() => (this.creating = undefined));
  }

  /** How many partitions it created; a failure is logged and tried again the next day (the default partition takes the rows meanwhile). */
  async createAhead(): Promise<number> {
    try {
      const created = await this.purges.createPartitionsAhead();
      if (created) this.logger.info({ created }, 'time partitions created ahead');
      return created;
    } catch (err) {
      this.logger.warn({ err: String(err) }, 'time partitions not created ahead; the default partitions take the rows until the next try');
      return 0;
    }
  }
}

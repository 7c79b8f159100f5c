import { type BeforeApplicationShutdown, Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { ENSURE_MONTHS_AHEAD, MONTHS_AHEAD, PARTITION_LOCK, TIME_PARTITIONED } from '../../../shared/database/time-partitions.js';
import { TransactionRunner } from '../../../shared/database/transaction.js';
import { firstRowOf, rowsOf } from '../../../shared/database/typed-statement.js';
import { withoutStatementTimeout } from '../../../shared/database/without-statement-timeout.js';
import { LOGGER, type Logger } from '../../../shared/logging/logger.js';

const DAY_MS = 86_400_000;

/**
 * In worker roles: keeps the month partitions of the current month and the next MONTHS_AHEAD
 * created, at start and daily, so rows land in their month and the default partition stays
 * empty. Several workers take the partition lock one after the other; the later ones find
 * every partition there.
 */
@Injectable()
export class TimePartitionSchedule implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private timer?: NodeJS.Timeout;

  constructor(private readonly transactions: TransactionRunner, @Inject(LOGGER) private readonly logger: Logger) {}

  onApplicationBootstrap(): void {
    void this.createAhead();
    this.timer = setInterval(() => void this.createAhead(), DAY_MS).unref();
  }

  beforeApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /** How many partitions it created; a failure is logged and tried again the next day (the default partition takes the rows meanwhile). */
  async createAhead(): Promise<number> {
    try {
      const created = await withoutStatementTimeout(this.transactions, async (m) => {
        await rowsOf(m, PARTITION_LOCK);
        let count = 0;
        for (const { table, column } of TIME_PARTITIONED) count += (await firstRowOf(m, ENSURE_MONTHS_AHEAD, [table, column, MONTHS_AHEAD, new Date()]))!.created;
        return count;
      });
      if (created) this.logger.info({ created }, 'time partitions created ahead');
      return created;
    } catch (err) {
      this.logger.warn({ err: String(err) }, 'time partitions not created ahead; the default partitions take the rows until the next try');
      return 0;
    }
  }
}

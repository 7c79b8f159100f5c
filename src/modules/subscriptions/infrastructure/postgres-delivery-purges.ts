import { Injectable } from '@nestjs/common';
import { purgeOwners, queryIn } from '../../../shared/database/purge-sql.js';
import { createMonthsAhead, dropPartitions, startOfMonth } from '../../../shared/database/time-partitions.js';
import { TransactionRunner } from '../../../shared/database/transaction.js';
import { rowsOf } from './persistence.js';
import { withoutStatementTimeout } from '../../../shared/database/without-statement-timeout.js';
import { DeliveryPurges, type OrganizationDays, type PurgeBatch, type PurgeOwner } from '../../retention/application/retention.ports.js';
import { DELIVERY_WINDOW, deleteOutboxEvents, EMPTY_DELIVERY_PARTITION, LOCK_ENDED_EVENTS, SUBSCRIPTIONS_WITH_OLD_DELIVERIES } from './delivery-purges.sql.js';

/** Ended deliveries past their organization's retention, as the retention purge asks. */
@Injectable()
export class PostgresDeliveryPurges extends DeliveryPurges {
  constructor(private readonly transactions: TransactionRunner) {
    super();
  }

  createPartitionsAhead(now: Date): Promise<number> {
    return createMonthsAhead(this.transactions, 'event_deliveries', 'created_at', now);
  }

  async dropEmptiedPartitions(): Promise<void> {
    await dropPartitions(this.transactions, { table: 'event_deliveries', check: EMPTY_DELIVERY_PARTITION, parameters: [], before: startOfMonth() });
  }

  subscriptionsWithOldDeliveries(organizations: OrganizationDays): Promise<PurgeOwner<number>[]> {
    return purgeOwners(this.transactions, SUBSCRIPTIONS_WITH_OLD_DELIVERIES, organizations);
  }

  /**
   * Deliveries are created in id order, so the window stops at the first one created after the
   * cutoff. Deliveries still being tried, or ended recently, stay behind as the window moves on;
   * an event goes once all its deliveries ended long enough ago.
   */
  purgeDeliveries(subscription: PurgeOwner<number>, afterId: number, limit: number): Promise<PurgeBatch<number>> {
    return withoutStatementTimeout(this.transactions, async (m) => {
      const window = await rowsOf(m, DELIVERY_WINDOW, [subscription.id, subscription.days, afterId, limit]);
      const reachedRecent = window.length < limit || window.some((delivery) => !delivery.old);
      const candidates = [...new Set(window.filter((delivery) => delivery.ended_long_ago).map((delivery) => Number(delivery.event_id)))];
      const events = candidates.length ? (await rowsOf(m, LOCK_ENDED_EVENTS, [candidates, subscription.days])).map((row) => Number(row.id)) : [];
      const purged = events.length ? await deleteOutboxEvents(queryIn(m), events) : {};
      return { purged, next: reachedRecent ? null : Number(window.at(-1)!.id) };
    });
  }
}

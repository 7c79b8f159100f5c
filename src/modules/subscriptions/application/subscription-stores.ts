import type { Transaction } from '../../../shared/database/transaction.js';
import type { DeliveryAttemptRecord, Subscription } from '../domain/subscription.js';

/** What the admin API may change of a subscription; `workflowIds: null` is every workflow. */
export interface SubscriptionFields {
  url: string;
  events: string[];
  workflowIds: number[] | null;
}

/**
 * The module's repository ports for the admin API, bound to its infrastructure. Every method
 * that names a subscription finds it only among the organization's live (not deleted) ones.
 */
export abstract class SubscriptionStore {
  /**
   * Stores a new subscription, refused past the organization's cap, with the secret `seal`
   * makes for its id; nobody sees the row without it.
   */
  abstract create(tx: Transaction, organizationId: number, fields: SubscriptionFields, seal: (id: number) => string): Promise<Subscription>;
  /** Undefined when there is no such subscription. */
  abstract update(tx: Transaction, organizationId: number, id: number, changes: Partial<SubscriptionFields>): Promise<Subscription | undefined>;
  /** Active again, its failures forgotten; undefined when there is no such subscription. */
  abstract enable(tx: Transaction, organizationId: number, id: number): Promise<Subscription | undefined>;
  /**
   * Replaces the signing secret with what `rotate` makes of the current one (the new one
   * sealed, the replaced one sealed as the previous, which signs beside it for 24 hours);
   * whether there was such a subscription.
   */
  abstract rotateSecret(tx: Transaction, organizationId: number, id: number, rotate: (currentCiphertext: string) => { secret: string; previous: string }): Promise<boolean>;
  /** The organization's live subscriptions, in id order. */
  abstract listLive(organizationId: number): Promise<Subscription[]>;
  /** In `tx` when given. */
  abstract findLive(organizationId: number, id: number, tx?: Transaction): Promise<Subscription | undefined>;
  /** Whether there was such a subscription. */
  abstract markDeleted(tx: Transaction, organizationId: number, id: number): Promise<boolean>;
}

/** A subscription's deliveries, as the admin API sends them again and lists their attempts. */
export abstract class DeliveryLog {
  /** The delivery is pending again, due now; false when the subscription has no such delivery. */
  abstract reopen(tx: Transaction, subscriptionId: number, deliveryId: number): Promise<boolean>;
  /** Every delivery that ended failed at or after `since` is pending again; how many. */
  abstract reopenFailedSince(tx: Transaction, subscriptionId: number, since: Date): Promise<number>;
  /** Newest first. */
  abstract attempts(subscriptionId: number, limit: number): Promise<DeliveryAttemptRecord[]>;
}

import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InvalidRequestError, NotFoundError } from '../../../shared/errors/app-error.js';
import { SecretBox } from '../../../shared/crypto/secret-box.js';
import { type Transaction, TransactionRunner } from '../../../shared/database/transaction.js';
import { previousSubscriptionSecretBinding, subscriptionSecretBinding } from '../../../shared/crypto/stored-secrets.js';
import { AuditTrail } from '../../audit/application/audit-trail.js';
import type { ChangeAuthor } from '../../audit/domain/audit-entry.js';
import { changedSettings } from '../../audit/domain/audit-summary.js';
import type { LifecycleEventType } from '../../cases/domain/case-lifecycle.js';
import { WorkflowDraftsService } from '../../workflows/application/workflow-drafts.service.js';
import type { Subscription } from '../domain/subscription.js';
import { SubscriptionDisabledError } from '../domain/subscription.errors.js';
import { DeliveryLog, type SubscriptionFields, SubscriptionStore } from './subscription-stores.js';

/** A new subscription, as the HTTP layer validated it; no `workflow_ids`: every workflow. */
export interface NewSubscription {
  url: string;
  events: LifecycleEventType[];
  workflow_ids?: number[];
}

/** Any of its fields, as sent: `workflow_ids: null` is every workflow again; `url` and `events` may not be null. */
export interface SubscriptionChanges {
  url?: string | null;
  events?: LifecycleEventType[] | null;
  workflow_ids?: number[] | null;
}

export interface SubscriptionView {
  id: number;
  url: string;
  events: string[];
  workflow_ids: number[] | null;
  created_at: string;
  /** Failing without a success since then; null while healthy. */
  failing_since: string | null;
  status: 'active' | 'disabled';
  disabled: boolean;
  disabled_at: string | null;
  disabled_reason: string | null;
}

export interface DeliveryAttemptView {
  /** The delivery (one event to this subscription) the attempt belongs to: what a retry names. */
  delivery_id: number;
  event_id: string;
  event_type: string;
  case_id: number;
  attempt: number;
  status_code: number | null;
  error: string | null;
  delivered: boolean;
  attempted_at: string;
}

@Injectable()
export class SubscriptionsService {
  constructor(
    private readonly subscriptions: SubscriptionStore,
    private readonly deliveryLog: DeliveryLog,
    private readonly secrets: SecretBox,
    private readonly workflows: WorkflowDraftsService,
    private readonly transactions: TransactionRunner,
    private readonly audit: AuditTrail,
  ) {}

  /** The signing secret is returned this once; it is stored sealed, like webhook tokens. */
  async create(by: ChangeAuthor, organizationId: number, request: NewSubscription): Promise<{ subscription: SubscriptionView; signing_secret: string }> {
    if (request.workflow_ids) await this.checkWorkflows(organizationId, request.workflow_ids);
    const secret = newSecret();
    const fields = { url: request.url, events: request.events, workflowIds: request.workflow_ids ?? null };
    // The secret is sealed bound to its row, so only once the row has its id.
    const subscription = await this.transactions.run(async (tx) => {
      const created = await this.subscriptions.create(tx, organizationId, fields, (id) => this.secrets.seal(secret, subscriptionSecretBinding(id)));
      await this.record(tx, by, created, 'created', { events: created.events, workflow_ids: created.workflowIds });
      return created;
    });
    return { subscription: toView(subscription), signing_secret: secret };
  }

  /** Changes where and what is sent from the next delivery on; deliveries already written keep their event. */
  async update(by: ChangeAuthor, organizationId: number, id: number, request: SubscriptionChanges): Promise<SubscriptionView> {
    const problems = [
      ...(['url', 'events'] as const).filter((key) => request[key] === null).map((key) => ({ path: `/${key}`, error: `${key} cannot be null` })),
      ...(Object.keys(request).length === 0 ? [{ path: '', error: 'give at least one of url, events, workflow_ids' }] : []),
    ];
    if (problems.length) throw new InvalidRequestError('invalid request body', problems);
    if (request.workflow_ids) await this.checkWorkflows(organizationId, request.workflow_ids);
    const changes: Partial<SubscriptionFields> = {
      ...(typeof request.url === 'string' && { url: request.url }),
      ...(Array.isArray(request.events) && { events: request.events }),
      ...(request.workflow_ids !== undefined && { workflowIds: request.workflow_ids }),
    };
    return toView(await this.transactions.run(async (tx) => {
      const before = orNotFound(await this.subscriptions.findLive(organizationId, id, tx));
      const after = orNotFound(await this.subscriptions.update(tx, organizationId, id, changes));
      await this.record(tx, by, after, 'updated', { changed: auditedChanges(before, after) });
      return after;
    }));
  }

  /** Active again from now on; failures before are forgotten, and what it missed is sent only through `recover`. */
  async enable(by: ChangeAuthor, organizationId: number, id: number): Promise<SubscriptionView> {
    return toView(await this.transactions.run(async (tx) => {
      const enabled = orNotFound(await this.subscriptions.enable(tx, organizationId, id));
      await this.record(tx, by, enabled, 'enabled');
      return enabled;
    }));
  }

  /**
   * A new signing secret, returned this once. The one it replaces keeps signing beside it for
   * 24 hours, so receivers can switch without losing a delivery; a second rotation within that
   * day drops the oldest.
   */
  async rotateSecret(by: ChangeAuthor, organizationId: number, id: number): Promise<{ signing_secret: string }> {
    const secret = newSecret();
    await this.transactions.run(async (tx) => {
      const rotated = await this.subscriptions.rotateSecret(tx, organizationId, id, (current) => ({
        secret: this.secrets.seal(secret, subscriptionSecretBinding(id)),
        previous: this.secrets.seal(this.secrets.open(current, subscriptionSecretBinding(id)), previousSubscriptionSecretBinding(id)),
      }));
      if (!rotated) throw new NotFoundError('subscription');
      await this.record(tx, by, { id, organizationId }, 'secret_rotated');
    });
    return { signing_secret: secret };
  }

  /**
   * Sends the delivery's event once more (same `webhook-id` and body) as a new attempt, through
   * the relay and Bull like any delivery. An ended delivery gets exactly one attempt; a pending
   * one is simply sent now instead of at its next retry.
   */
  async retry(by: ChangeAuthor, organizationId: number, id: number, deliveryId: number): Promise<void> {
    await this.activeSubscription(organizationId, id);
    await this.transactions.run(async (tx) => {
      if (!(await this.deliveryLog.reopen(tx, id, deliveryId))) throw new NotFoundError('delivery');
      await this.record(tx, by, { id, organizationId }, 'delivery_retried', { delivery_id: deliveryId });
    });
  }

  /**
   * Every delivery that ended failed at or after `since` (including those written while the
   * subscription was disabled) is pending again, with a fresh retry window. They keep their
   * ids, so the relay sends each case's events in their order.
   */
  async recover(by: ChangeAuthor, organizationId: number, id: number, since: Date): Promise<number> {
    await this.activeSubscription(organizationId, id);
    return this.transactions.run(async (tx) => {
      const recovering = await this.deliveryLog.reopenFailedSince(tx, id, since);
      await this.record(tx, by, { id, organizationId }, 'recovered', { since: since.toISOString(), recovering });
      return recovering;
    });
  }

  async list(organizationId: number): Promise<SubscriptionView[]> {
    return (await this.subscriptions.listLive(organizationId)).map(toView);
  }

  /** Stops deliveries at once; the delivery log is kept. */
  async delete(by: ChangeAuthor, organizationId: number, id: number): Promise<void> {
    await this.transactions.run(async (tx) => {
      if (!(await this.subscriptions.markDeleted(tx, organizationId, id))) throw new NotFoundError('subscription');
      await this.record(tx, by, { id, organizationId }, 'deleted');
    });
  }

  /** Every delivery attempt, newest first. */
  async deliveries(organizationId: number, id: number, limit: number): Promise<DeliveryAttemptView[]> {
    orNotFound(await this.subscriptions.findLive(organizationId, id));
    return (await this.deliveryLog.attempts(id, limit)).map((a) => ({
      delivery_id: a.deliveryId,
      event_id: a.eventId,
      event_type: a.eventType,
      case_id: a.caseId,
      attempt: a.attempt,
      status_code: a.statusCode,
      error: a.error,
      delivered: a.delivered,
      attempted_at: a.attemptedAt.toISOString(),
    }));
  }

  /** Never the URL (a receiver's URL may carry its own token) nor a signing secret. */
  private record(tx: Transaction, by: ChangeAuthor, subscription: Pick<Subscription, 'id' | 'organizationId'>, verb: string, summary: Record<string, unknown> = {}): Promise<void> {
    return this.audit.record(tx, { organizationId: subscription.organizationId, by, action: `subscription.${verb}`, target: { type: 'subscription', id: String(subscription.id) }, summary });
  }

  private async checkWorkflows(organizationId: number, workflowIds: number[]): Promise<void> {
    const owned = await this.workflows.existingIds(organizationId, workflowIds);
    if (owned.length !== workflowIds.length) {
      throw new InvalidRequestError('invalid request body', [{ path: '/workflow_ids', error: 'every workflow must exist in this organization' }]);
    }
  }

  /** Sending again to a disabled subscription would only end failed again: it is enabled first, on purpose. */
  private async activeSubscription(organizationId: number, id: number): Promise<void> {
    if (orNotFound(await this.subscriptions.findLive(organizationId, id)).disabledAt) throw new SubscriptionDisabledError();
  }
}

function orNotFound(subscription: Subscription | undefined): Subscription {
  if (!subscription) throw new NotFoundError('subscription');
  return subscription;
}

/** What an update changed: events and workflows from and to; of the URL only that it changed. */
function auditedChanges(before: Subscription, after: Subscription): Record<string, unknown> {
  return {
    ...changedSettings({ events: before.events, workflow_ids: before.workflowIds }, { events: after.events, workflow_ids: after.workflowIds }),
    ...(before.url !== after.url && { url: 'changed' }),
  };
}

function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

function toView(subscription: Subscription): SubscriptionView {
  return {
    id: subscription.id,
    url: subscription.url,
    events: subscription.events,
    workflow_ids: subscription.workflowIds,
    created_at: subscription.createdAt.toISOString(),
    failing_since: subscription.failingSince?.toISOString() ?? null,
    status: subscription.disabledAt === null ? 'active' : 'disabled',
    disabled: subscription.disabledAt !== null,
    disabled_at: subscription.disabledAt?.toISOString() ?? null,
    disabled_reason: subscription.disabledReason,
  };
}

import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, IsNull, type Repository } from 'typeorm';
import { Env } from '../../../shared/config/env.js';
import { type OrganizationCap, storeWithinCap } from '../../../shared/database/organization-caps.js';
import { TransactionRunner } from '../../../shared/database/transaction.js';
import { entityManager } from '../../../shared/database/typeorm-transaction-runner.js';
import { InvalidRequestError, NotFoundError } from '../../../shared/errors/app-error.js';
import { SecretBox } from '../../../shared/crypto/secret-box.js';
import { previousSubscriptionSecretBinding, subscriptionSecretBinding } from '../../../shared/crypto/stored-secrets.js';
import type { LifecycleEventType } from '../../cases/domain/case-lifecycle.js';
import { WorkflowDraftsService } from '../../workflows/application/workflow-drafts.service.js';
import { SubscriptionOrmEntity } from '../infrastructure/subscription.orm-entity.js';
import { SubscriptionDisabledError } from '../domain/subscription.errors.js';

/** After a rotation, the replaced secret signs beside the new one this long (integrations.md §4). */
const PREVIOUS_SECRET_SIGNS_FOR = `interval '24 hours'`;

/** Disabled ones count: they can be enabled again. */
const SUBSCRIPTIONS_CAP: OrganizationCap = { what: 'subscriptions', table: 'subscriptions', live: 'deleted_at IS NULL', setting: 'MAX_SUBSCRIPTIONS_PER_ORGANIZATION' };

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
    @InjectRepository(SubscriptionOrmEntity) private readonly subscriptions: Repository<SubscriptionOrmEntity>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
    private readonly secrets: SecretBox,
    private readonly workflows: WorkflowDraftsService,
    private readonly env: Env,
  ) {}

  /** The signing secret is returned this once; it is stored sealed, like webhook tokens. */
  async create(organizationId: number, request: NewSubscription): Promise<{ subscription: SubscriptionView; signing_secret: string }> {
    if (request.workflow_ids) await this.checkWorkflows(organizationId, request.workflow_ids);
    const secret = newSecret();
    // The secret is sealed bound to its row, so only once the row has its id; in one transaction, nobody sees the row without it.
    const id = await storeWithinCap(this.transactions, this.env, organizationId, SUBSCRIPTIONS_CAP, async (manager) => {
      const row = await manager.save(
        manager.create(SubscriptionOrmEntity, {
          organizationId,
          url: request.url,
          events: request.events,
          workflowIds: request.workflow_ids?.map(String) ?? null,
          secretCiphertext: '',
        }),
      );
      await manager.update(SubscriptionOrmEntity, { id: row.id }, { secretCiphertext: this.secrets.seal(secret, subscriptionSecretBinding(row.id)) });
      return row.id;
    });
    return { subscription: toView(await this.subscriptions.findOneByOrFail({ id })), signing_secret: secret };
  }

  /** Changes where and what is sent from the next delivery on; deliveries already written keep their event. */
  async update(organizationId: number, id: number, request: SubscriptionChanges): Promise<SubscriptionView> {
    const problems = [
      ...(['url', 'events'] as const).filter((key) => request[key] === null).map((key) => ({ path: `/${key}`, error: `${key} cannot be null` })),
      ...(Object.keys(request).length === 0 ? [{ path: '', error: 'give at least one of url, events, workflow_ids' }] : []),
    ];
    if (problems.length) throw new InvalidRequestError('invalid request body', problems);
    if (request.workflow_ids) await this.checkWorkflows(organizationId, request.workflow_ids);
    const changes: Partial<SubscriptionOrmEntity> = {
      ...(typeof request.url === 'string' && { url: request.url }),
      ...(Array.isArray(request.events) && { events: request.events }),
      ...(request.workflow_ids !== undefined && { workflowIds: request.workflow_ids?.map(String) ?? null }),
    };
    const result = await this.subscriptions.update({ id, organizationId, deletedAt: IsNull() }, changes);
    if (!result.affected) throw new NotFoundError('subscription');
    return toView(await this.subscriptions.findOneByOrFail({ id }));
  }

  /** Active again from now on; failures before are forgotten, and what it missed is sent only through `recover`. */
  async enable(organizationId: number, id: number): Promise<SubscriptionView> {
    const result = await this.subscriptions.update(
      { id, organizationId, deletedAt: IsNull() },
      { disabledAt: null, disabledReason: null, failingSince: () => 'CASE WHEN disabled_at IS NULL THEN failing_since END' },
    );
    if (!result.affected) throw new NotFoundError('subscription');
    return toView(await this.subscriptions.findOneByOrFail({ id }));
  }

  /**
   * A new signing secret, returned this once. The one it replaces keeps signing beside it for
   * 24 hours, so receivers can switch without losing a delivery; a second rotation within that
   * day drops the oldest.
   */
  async rotateSecret(organizationId: number, id: number): Promise<{ signing_secret: string }> {
    const secret = newSecret();
    await this.transactions.run(async (tx) => {
      const manager = entityManager(tx);
      // NO KEY: intakes writing this subscription's deliveries key-share its row, and a rotation must not hold them (and their batches) up.
      const [row] = (await manager.query(
        `SELECT secret_ciphertext FROM subscriptions WHERE id = $1 AND organization_id = $2 AND deleted_at IS NULL FOR NO KEY UPDATE`,
        [id, organizationId],
      )) as { secret_ciphertext: string }[];
      if (!row) throw new NotFoundError('subscription');
      const replaced = this.secrets.open(row.secret_ciphertext, subscriptionSecretBinding(id));
      await manager.query(
        `UPDATE subscriptions SET secret_ciphertext = $2, previous_secret_ciphertext = $3, previous_secret_expires_at = now() + ${PREVIOUS_SECRET_SIGNS_FOR}
         WHERE id = $1`,
        [id, this.secrets.seal(secret, subscriptionSecretBinding(id)), this.secrets.seal(replaced, previousSubscriptionSecretBinding(id))],
      );
    });
    return { signing_secret: secret };
  }

  /**
   * Sends the delivery's event once more (same `webhook-id` and body) as a new attempt, through
   * the relay and Bull like any delivery. An ended delivery gets exactly one attempt; a pending
   * one is simply sent now instead of at its next retry.
   */
  async retry(organizationId: number, id: number, deliveryId: number): Promise<void> {
    await this.activeSubscription(organizationId, id);
    const reopened = (await this.dataSource.query(
      `WITH reopened AS (
         UPDATE event_deliveries SET
           next_attempt_at = now(),
           give_up_at = CASE WHEN state = 'pending' THEN give_up_at ELSE now() END,
           enqueued_at = CASE WHEN state = 'pending' THEN enqueued_at END,
           state = 'pending', finished_at = NULL
         WHERE id = $1 AND subscription_id = $2 RETURNING id
       ) SELECT * FROM reopened`,
      [deliveryId, id],
    )) as unknown[];
    if (!reopened.length) throw new NotFoundError('delivery');
  }

  /**
   * Every delivery that ended failed at or after `since` (including those written while the
   * subscription was disabled) is pending again, with a fresh retry window. They keep their
   * ids, so the relay sends each case's events in their order.
   */
  async recover(organizationId: number, id: number, since: Date): Promise<number> {
    await this.activeSubscription(organizationId, id);
    const [row] = (await this.dataSource.query(
      `WITH reopened AS (
         UPDATE event_deliveries SET state = 'pending', finished_at = NULL, next_attempt_at = now(),
           give_up_at = DEFAULT, enqueued_at = NULL, locked_until = NULL
         WHERE subscription_id = $1 AND state = 'failed' AND finished_at >= $2 RETURNING 1
       ) SELECT count(*)::int AS n FROM reopened`,
      [id, since],
    )) as { n: number }[];
    return row!.n;
  }

  async list(organizationId: number): Promise<SubscriptionView[]> {
    return (await this.subscriptions.find({ where: { organizationId, deletedAt: IsNull() }, order: { id: 'ASC' } })).map(toView);
  }

  /** Stops deliveries at once; the delivery log is kept. */
  async delete(organizationId: number, id: number): Promise<void> {
    const result = await this.subscriptions.update({ id, organizationId, deletedAt: IsNull() }, { deletedAt: () => 'now()' });
    if (!result.affected) throw new NotFoundError('subscription');
  }

  /** Every delivery attempt, newest first. */
  async deliveries(organizationId: number, id: number, limit: number): Promise<DeliveryAttemptView[]> {
    if (!(await this.subscriptions.existsBy({ id, organizationId, deletedAt: IsNull() }))) throw new NotFoundError('subscription');
    const rows = (await this.dataSource.query(
      `SELECT d.id AS delivery_id, e.public_id, e.type, d.case_id, a.attempt, a.status_code, a.error, a.delivered, a.attempted_at
       FROM delivery_attempts a JOIN event_deliveries d ON d.id = a.delivery_id JOIN outbox_events e ON e.id = d.event_id
       WHERE d.subscription_id = $1 ORDER BY a.id DESC LIMIT $2`,
      [id, limit],
    )) as { delivery_id: string; public_id: string; type: string; case_id: string; attempt: number; status_code: number | null; error: string | null; delivered: boolean; attempted_at: Date }[];
    return rows.map((r) => ({
      delivery_id: Number(r.delivery_id),
      event_id: r.public_id,
      event_type: r.type,
      case_id: Number(r.case_id),
      attempt: r.attempt,
      status_code: r.status_code,
      error: r.error,
      delivered: r.delivered,
      attempted_at: r.attempted_at.toISOString(),
    }));
  }

  private async checkWorkflows(organizationId: number, workflowIds: number[]): Promise<void> {
    const owned = await this.workflows.existingIds(organizationId, workflowIds);
    if (owned.length !== workflowIds.length) {
      throw new InvalidRequestError('invalid request body', [{ path: '/workflow_ids', error: 'every workflow must exist in this organization' }]);
    }
  }

  /** Sending again to a disabled subscription would only end failed again: it is enabled first, on purpose. */
  private async activeSubscription(organizationId: number, id: number): Promise<void> {
    const row = await this.subscriptions.findOneBy({ id, organizationId, deletedAt: IsNull() });
    if (!row) throw new NotFoundError('subscription');
    if (row.disabledAt) throw new SubscriptionDisabledError();
  }
}

function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

function toView(row: SubscriptionOrmEntity): SubscriptionView {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    workflow_ids: row.workflowIds?.map(Number) ?? null,
    created_at: row.createdAt.toISOString(),
    failing_since: row.failingSince?.toISOString() ?? null,
    status: row.disabledAt === null ? 'active' : 'disabled',
    disabled: row.disabledAt !== null,
    disabled_at: row.disabledAt?.toISOString() ?? null,
    disabled_reason: row.disabledReason,
  };
}

import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, IsNull, type Repository } from 'typeorm';
import { InvalidRequestError, NotFoundError } from '../../shared/errors/app-error.js';
import { SecretBox } from '../../shared/crypto/secret-box.js';
import { subscriptionSecretBinding } from '../../shared/crypto/stored-secrets.js';
import { WorkflowDraftsService } from '../workflows/application/workflow-drafts.service.js';
import type { CreateSubscriptionRequest } from './create-subscription.request.js';
import { SubscriptionOrmEntity } from './subscription.orm-entity.js';

export interface SubscriptionView {
  id: number;
  url: string;
  events: string[];
  workflow_ids: number[] | null;
  created_at: string;
  /** Failing without a success since then; null while healthy. */
  failing_since: string | null;
  disabled: boolean;
  disabled_at: string | null;
  disabled_reason: string | null;
}

export interface DeliveryAttemptView {
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
    private readonly secrets: SecretBox,
    private readonly workflows: WorkflowDraftsService,
  ) {}

  /** The signing secret is returned this once; it is stored sealed, like webhook tokens. */
  async create(organizationId: number, request: CreateSubscriptionRequest): Promise<{ subscription: SubscriptionView; signing_secret: string }> {
    if (request.workflow_ids) {
      const owned = await this.workflows.existingIds(organizationId, request.workflow_ids);
      if (owned.length !== request.workflow_ids.length) {
        throw new InvalidRequestError('invalid request body', [{ path: '/workflow_ids', error: 'every workflow must exist in this organization' }]);
      }
    }
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    // The secret is sealed bound to its row, so only once the row has its id; in one transaction, nobody sees the row without it.
    const id = await this.dataSource.transaction(async (manager) => {
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
      `SELECT e.public_id, e.type, d.case_id, a.attempt, a.status_code, a.error, a.delivered, a.attempted_at
       FROM delivery_attempts a JOIN event_deliveries d ON d.id = a.delivery_id JOIN outbox_events e ON e.id = d.event_id
       WHERE d.subscription_id = $1 ORDER BY a.id DESC LIMIT $2`,
      [id, limit],
    )) as { public_id: string; type: string; case_id: string; attempt: number; status_code: number | null; error: string | null; delivered: boolean; attempted_at: Date }[];
    return rows.map((r) => ({
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
}

function toView(row: SubscriptionOrmEntity): SubscriptionView {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    workflow_ids: row.workflowIds?.map(Number) ?? null,
    created_at: row.createdAt.toISOString(),
    failing_since: row.failingSince?.toISOString() ?? null,
    disabled: row.disabledAt !== null,
    disabled_at: row.disabledAt?.toISOString() ?? null,
    disabled_reason: row.disabledReason,
  };
}

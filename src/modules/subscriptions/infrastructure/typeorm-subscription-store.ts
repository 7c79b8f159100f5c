import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, type Repository } from 'typeorm';
import { Env } from '../../../shared/config/env.js';
import { CAP_COUNT, capCountSql, type OrganizationCap, storeWithinCap } from '../../../shared/database/organization-caps.js';
import type { Transaction } from '../../../shared/database/transaction.js';
import { column } from '../../../shared/database/typed-statement.js';
import { firstRowOf, rowsOf, statement } from './persistence.js';
import { entityManager } from '../../../shared/database/typeorm-transaction-runner.js';
import { type SubscriptionFields, SubscriptionStore } from '../application/subscription-stores.js';
import type { Subscription } from '../domain/subscription.js';
import { SubscriptionOrmEntity } from './subscription.orm-entity.js';

/** After a rotation, the replaced secret signs beside the new one this long (integrations.md §4). */
const PREVIOUS_SECRET_SIGNS_FOR = `interval '24 hours'`;

// NO KEY: intakes writing this subscription's deliveries key-share its row, and a rotation must not hold them (and their batches) up.
const LOCK_SECRET = statement(
  'SELECT secret_ciphertext FROM subscriptions WHERE id = $1 AND organization_id = $2 AND deleted_at IS NULL FOR NO KEY UPDATE',
  { secret_ciphertext: column.text },
);
const ROTATE_SECRET = statement(
  `UPDATE subscriptions SET secret_ciphertext = $2, previous_secret_ciphertext = $3, previous_secret_expires_at = now() + ${PREVIOUS_SECRET_SIGNS_FOR}
   WHERE id = $1`,
);

/** Disabled ones count: they can be enabled again. */
const SUBSCRIPTIONS_CAP: OrganizationCap = { what: 'subscriptions', count: statement(capCountSql('subscriptions', 'deleted_at IS NULL'), CAP_COUNT), setting: 'MAX_SUBSCRIPTIONS_PER_ORGANIZATION' };

@Injectable()
export class TypeOrmSubscriptionStore extends SubscriptionStore {
  constructor(
    @InjectRepository(SubscriptionOrmEntity) private readonly subscriptions: Repository<SubscriptionOrmEntity>,
    private readonly env: Env,
  ) {
    super();
  }

  async create(tx: Transaction, organizationId: number, fields: SubscriptionFields, seal: (id: number) => string): Promise<Subscription> {
    const id = await storeWithinCap(tx, this.env, organizationId, SUBSCRIPTIONS_CAP, async (manager) => {
      const row = await manager.save(manager.create(SubscriptionOrmEntity, { organizationId, ...columns(fields), secretCiphertext: '' }));
      await manager.update(SubscriptionOrmEntity, { id: row.id }, { secretCiphertext: seal(row.id) });
      return row.id;
    });
    return toSubscription(await entityManager(tx).findOneByOrFail(SubscriptionOrmEntity, { id }));
  }

  async update(tx: Transaction, organizationId: number, id: number, changes: Partial<SubscriptionFields>): Promise<Subscription | undefined> {
    const m = entityManager(tx);
    const result = await m.update(SubscriptionOrmEntity, { id, organizationId, deletedAt: IsNull() }, columns(changes));
    return result.affected ? toSubscription(await m.findOneByOrFail(SubscriptionOrmEntity, { id })) : undefined;
  }

  async enable(tx: Transaction, organizationId: number, id: number): Promise<Subscription | undefined> {
    const m = entityManager(tx);
    const result = await m.update(
      SubscriptionOrmEntity,
      { id, organizationId, deletedAt: IsNull() },
      { disabledAt: null, disabledReason: null, failingSince: () => 'CASE WHEN disabled_at IS NULL THEN failing_since END' },
    );
    return result.affected ? toSubscription(await m.findOneByOrFail(SubscriptionOrmEntity, { id })) : undefined;
  }

  async rotateSecret(tx: Transaction, organizationId: number, id: number, rotate: (currentCiphertext: string) => { secret: string; previous: string }): Promise<boolean> {
    const manager = entityManager(tx);
    const row = await firstRowOf(manager, LOCK_SECRET, [id, organizationId]);
    if (!row) return false;
    const rotated = rotate(row.secret_ciphertext);
    await rowsOf(manager, ROTATE_SECRET, [id, rotated.secret, rotated.previous]);
    return true;
  }

  async listLive(organizationId: number): Promise<Subscription[]> {
    return (await this.subscriptions.find({ where: { organizationId, deletedAt: IsNull() }, order: { id: 'ASC' } })).map(toSubscription);
  }

  async findLive(organizationId: number, id: number, tx?: Transaction): Promise<Subscription | undefined> {
    const row = await (tx ? entityManager(tx) : this.subscriptions.manager).findOneBy(SubscriptionOrmEntity, { id, organizationId, deletedAt: IsNull() });
    return row ? toSubscription(row) : undefined;
  }

  async markDeleted(tx: Transaction, organizationId: number, id: number): Promise<boolean> {
    const result = await entityManager(tx).update(SubscriptionOrmEntity, { id, organizationId, deletedAt: IsNull() }, { deletedAt: () => 'now()' });
    return Boolean(result.affected);
  }
}

/** The bigint[] column reads and writes as strings. */
function columns(fields: Partial<SubscriptionFields>): Partial<SubscriptionOrmEntity> {
  return {
    ...(fields.url !== undefined && { url: fields.url }),
    ...(fields.events !== undefined && { events: fields.events }),
    ...(fields.workflowIds !== undefined && { workflowIds: fields.workflowIds?.map(String) ?? null }),
  };
}

function toSubscription(row: SubscriptionOrmEntity): Subscription {
  return {
    id: row.id,
    organizationId: row.organizationId,
    url: row.url,
    events: row.events,
    workflowIds: row.workflowIds?.map(Number) ?? null,
    createdAt: row.createdAt,
    failingSince: row.failingSince,
    disabledAt: row.disabledAt,
    disabledReason: row.disabledReason,
  };
}

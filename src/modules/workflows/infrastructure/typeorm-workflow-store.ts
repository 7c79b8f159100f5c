import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, IsNull, Not, type Repository } from 'typeorm';
import { Env } from '../../../shared/config/env.js';
import { CAP_COUNT, capCountSql, type OrganizationCap, storeWithinCap } from '../../../shared/database/organization-caps.js';
import { statement } from './persistence.js';
import type { Transaction } from '../../../shared/database/transaction.js';
import { entityManager } from '../../../shared/database/typeorm-transaction-runner.js';
import { WorkflowStore } from '../application/workflow-stores.js';
import type { StoredWebhookToken, Workflow } from '../domain/workflow.js';
import type { WorkflowDefinition } from '../domain/workflow-definition.js';
import { asJsonColumn, WorkflowOrmEntity } from './workflow.orm-entity.js';

/** Each workflow has at most one form and one inbound mail address, which this cap therefore bounds too. */
const WORKFLOWS_CAP: OrganizationCap = { what: 'workflows', count: statement(capCountSql('workflows'), CAP_COUNT), setting: 'MAX_WORKFLOWS_PER_ORGANIZATION' };

@Injectable()
export class TypeOrmWorkflowStore extends WorkflowStore {
  constructor(
    @InjectRepository(WorkflowOrmEntity) private readonly workflows: Repository<WorkflowOrmEntity>,
    private readonly env: Env,
  ) {
    super();
  }

  async create(tx: Transaction, organizationId: number, draft: WorkflowDefinition): Promise<Workflow> {
    const id = await storeWithinCap(tx, this.env, organizationId, WORKFLOWS_CAP, async (m) => (await m.save(m.create(WorkflowOrmEntity, { organizationId, draft }))).id);
    // Read back for the columns the database sets.
    return entityManager(tx).findOneByOrFail(WorkflowOrmEntity, { id });
  }

  listByOrganization(organizationId: number): Promise<Workflow[]> {
    return this.workflows.find({ where: { organizationId }, order: { id: 'ASC' } });
  }

  async find(id: number): Promise<Workflow | undefined> {
    return (await this.workflows.findOneBy({ id })) ?? undefined;
  }

  async findOwned(organizationId: number, id: number): Promise<Workflow | undefined> {
    return (await this.workflows.findOneBy({ id, organizationId })) ?? undefined;
  }

  async lockOwned(tx: Transaction, organizationId: number, id: number): Promise<Workflow | undefined> {
    return (await entityManager(tx).findOne(WorkflowOrmEntity, { where: { id, organizationId }, lock: { mode: 'pessimistic_write' } })) ?? undefined;
  }

  async everPublished(): Promise<{ id: number; organizationId: number }[]> {
    const rows = await this.workflows.find({ select: { id: true, organizationId: true }, where: { version: Not(IsNull()) }, order: { id: 'ASC' } });
    return rows.map((row) => ({ id: Number(row.id), organizationId: Number(row.organizationId) }));
  }

  async existingIds(organizationId: number, ids: number[]): Promise<number[]> {
    const rows = await this.workflows.find({ select: { id: true }, where: { organizationId, id: In(ids) } });
    return rows.map((row) => row.id);
  }

  async replaceDraft(tx: Transaction, id: number, draft: WorkflowDefinition): Promise<void> {
    await entityManager(tx).update(WorkflowOrmEntity, { id }, { draft: asJsonColumn(draft), updatedAt: () => 'now()' });
  }

  async markPublished(tx: Transaction, id: number, version?: number): Promise<void> {
    await entityManager(tx).update(WorkflowOrmEntity, { id }, { published: true, ...(version === undefined ? {} : { version }), updatedAt: () => 'now()' });
  }

  async markUnpublished(tx: Transaction, id: number): Promise<void> {
    await entityManager(tx).update(WorkflowOrmEntity, { id }, { published: false, updatedAt: () => 'now()' });
  }

  async setWebhookToken(tx: Transaction, id: number, token: StoredWebhookToken, replacing: boolean): Promise<boolean> {
    const result = await entityManager(tx).update(
      WorkflowOrmEntity,
      { id, webhookTokenHash: replacing ? Not(IsNull()) : IsNull() },
      { webhookTokenHash: token.hash, webhookTokenCiphertext: token.ciphertext },
    );
    return Boolean(result.affected);
  }
}

import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import type { Transaction } from '../../../shared/database/transaction.js';
import { entityManager } from '../../../shared/database/typeorm-transaction-runner.js';
import { WorkflowVersionStore } from '../application/workflow-stores.js';
import type { PublishedVersion } from '../domain/workflow.js';
import type { WorkflowDefinition } from '../domain/workflow-definition.js';
import { asJsonColumn } from './workflow.orm-entity.js';
import { WorkflowVersionOrmEntity } from './workflow-version.orm-entity.js';

@Injectable()
export class TypeOrmWorkflowVersionStore extends WorkflowVersionStore {
  constructor(@InjectRepository(WorkflowVersionOrmEntity) private readonly versions: Repository<WorkflowVersionOrmEntity>) {
    super();
  }

  summaries(workflowId: number): Promise<Omit<PublishedVersion, 'definition'>[]> {
    return this.versions.find({ select: { workflowId: true, version: true, createdAt: true, publishedBy: true }, where: { workflowId }, order: { version: 'DESC' } });
  }

  async find(workflowId: number, version: number): Promise<PublishedVersion | undefined> {
    return (await this.versions.findOneBy({ workflowId, version })) ?? undefined;
  }

  get(workflowId: number, version: number, tx?: Transaction): Promise<PublishedVersion> {
    const manager = tx ? entityManager(tx) : this.versions.manager;
    return manager.findOneByOrFail(WorkflowVersionOrmEntity, { workflowId, version });
  }

  async definitions(versions: { workflowId: number; version: number }[]): Promise<Map<number, WorkflowDefinition>> {
    const rows = versions.length === 0 ? [] : await this.versions.find({ where: versions });
    return new Map(rows.map((row) => [row.workflowId, row.definition]));
  }

  async insert(tx: Transaction, version: Omit<PublishedVersion, 'createdAt'>): Promise<void> {
    await entityManager(tx).insert(WorkflowVersionOrmEntity, { ...version, definition: asJsonColumn(version.definition) });
  }
}

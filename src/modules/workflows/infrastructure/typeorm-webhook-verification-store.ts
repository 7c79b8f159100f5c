import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import type { Transaction } from '../../../shared/database/transaction.js';
import { entityManager } from '../../../shared/database/typeorm-transaction-runner.js';
import { WebhookVerificationStore } from '../application/workflow-stores.js';
import type { StoredVerificationOptions } from '../domain/webhook-verification.js';
import type { StoredWebhookVerification } from '../domain/workflow.js';
import { WebhookVerificationOrmEntity } from './webhook-verification.orm-entity.js';

@Injectable()
export class TypeOrmWebhookVerificationStore extends WebhookVerificationStore {
  constructor(@InjectRepository(WebhookVerificationOrmEntity) private readonly verifications: Repository<WebhookVerificationOrmEntity>) {
    super();
  }

  async find(workflowId: number): Promise<StoredWebhookVerification | undefined> {
    return (await this.verifications.findOneBy({ workflowId })) ?? undefined;
  }

  async put(tx: Transaction, workflowId: number, options: StoredVerificationOptions, secretCiphertext: string): Promise<void> {
    await entityManager(tx).upsert(WebhookVerificationOrmEntity, { workflowId, scheme: options.scheme, options, secretCiphertext, updatedAt: () => 'now()' }, ['workflowId']);
  }

  async delete(tx: Transaction, workflowId: number): Promise<boolean> {
    return Boolean((await entityManager(tx).delete(WebhookVerificationOrmEntity, { workflowId })).affected);
  }
}

import { Injectable } from '@nestjs/common';
import { SecretBox } from '../../../shared/crypto/secret-box.js';
import { webhookVerificationBinding } from '../../../shared/crypto/stored-secrets.js';
import { NotFoundError } from '../../../shared/errors/app-error.js';
import type { StoredVerificationOptions, VerificationSetting } from '../domain/webhook-verification.js';
import { PublishedWorkflowsService } from './published-workflows.service.js';
import { WorkflowDraftsService } from './workflow-drafts.service.js';
import { WebhookVerificationStore } from './workflow-stores.js';

/** What the admin API shows of a verification: the options, never the secret. */
export type VerificationView = StoredVerificationOptions & { created_at: string; updated_at: string };

/**
 * The signature a workflow's webhook requires. It belongs to the workflow (publishing and token
 * rotation leave it alone), and every change goes through the published state's `change`, so
 * every instance drops the cached check with the state it rides on (within 1 s, see CacheGeneration).
 */
@Injectable()
export class WebhookVerificationService {
  constructor(
    private readonly verifications: WebhookVerificationStore,
    private readonly drafts: WorkflowDraftsService,
    private readonly published: PublishedWorkflowsService,
    private readonly secrets: SecretBox,
  ) {}

  /** Sets or replaces the verification; the old secret stops passing at once. */
  async put(organizationId: number, workflowId: number, setting: VerificationSetting): Promise<VerificationView> {
    await this.drafts.findOwned(organizationId, workflowId);
    const secretCiphertext = this.secrets.seal(setting.secret, webhookVerificationBinding(workflowId));
    await this.published.change(workflowId, (tx) => this.verifications.put(tx, workflowId, setting.options, secretCiphertext));
    return this.get(organizationId, workflowId);
  }

  async get(organizationId: number, workflowId: number): Promise<VerificationView> {
    await this.drafts.findOwned(organizationId, workflowId);
    const row = await this.verifications.find(workflowId);
    if (!row) throw new NotFoundError('webhook verification');
    return { ...row.options, created_at: row.createdAt.toISOString(), updated_at: row.updatedAt.toISOString() };
  }

  /** Removes the verification: the webhook takes its token alone again. */
  async delete(organizationId: number, workflowId: number): Promise<void> {
    await this.drafts.findOwned(organizationId, workflowId);
    await this.published.change(workflowId, async (tx) => {
      if (!(await this.verifications.delete(tx, workflowId))) throw new NotFoundError('webhook verification');
    });
  }
}

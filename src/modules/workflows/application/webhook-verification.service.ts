import { Injectable } from '@nestjs/common';
import { SecretBox } from '../../../shared/crypto/secret-box.js';
import { webhookVerificationBinding } from '../../../shared/crypto/stored-secrets.js';
import { NotFoundError } from '../../../shared/errors/app-error.js';
import { AuditTrail } from '../../audit/application/audit-trail.js';
import type { ChangeAuthor } from '../../audit/domain/audit-entry.js';
import { changedSettings } from '../../audit/domain/audit-summary.js';
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
    private readonly audit: AuditTrail,
  ) {}

  /** Sets or replaces the verification; the old secret stops passing at once. */
  async put(by: ChangeAuthor, organizationId: number, workflowId: number, setting: VerificationSetting): Promise<VerificationView> {
    await this.drafts.findOwned(organizationId, workflowId);
    const secretCiphertext = this.secrets.seal(setting.secret, webhookVerificationBinding(workflowId));
    const before = await this.verifications.find(workflowId);
    await this.published.change(workflowId, async (tx) => {
      await this.verifications.put(tx, workflowId, setting.options, secretCiphertext);
      // The options only: the secret is never in an entry (that it was replaced is the entry itself).
      const changed = changedSettings({ ...before?.options }, { ...setting.options });
      await this.audit.record(tx, { organizationId, by, action: 'webhook_verification.set', target: { type: 'workflow', id: String(workflowId) }, summary: { changed } });
    });
    return this.get(organizationId, workflowId);
  }

  async get(organizationId: number, workflowId: number): Promise<VerificationView> {
    await this.drafts.findOwned(organizationId, workflowId);
    const row = await this.verifications.find(workflowId);
    if (!row) throw new NotFoundError('webhook verification');
    return { ...row.options, created_at: row.createdAt.toISOString(), updated_at: row.updatedAt.toISOString() };
  }

  /** Removes the verification: the webhook takes its token alone again. */
  async delete(by: ChangeAuthor, organizationId: number, workflowId: number): Promise<void> {
    await this.drafts.findOwned(organizationId, workflowId);
    await this.published.change(workflowId, async (tx) => {
      if (!(await this.verifications.delete(tx, workflowId))) throw new NotFoundError('webhook verification');
      await this.audit.record(tx, { organizationId, by, action: 'webhook_verification.deleted', target: { type: 'workflow', id: String(workflowId) } });
    });
  }
}

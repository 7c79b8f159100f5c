import { Injectable } from '@nestjs/common';
import { Env } from '../../../shared/config/env.js';
import { SecretBox } from '../../../shared/crypto/secret-box.js';
import { webhookTokenBinding } from '../../../shared/crypto/stored-secrets.js';
import { NotFoundError } from '../../../shared/errors/app-error.js';
import { sha256 } from '../../../shared/crypto/sha256.js';
import { AuditTrail } from '../../audit/application/audit-trail.js';
import type { ChangeAuthor } from '../../audit/domain/audit-entry.js';
import { generateSecret } from '../../tokens/domain/token-secrets.js';
import { WebhookUnavailableError } from '../domain/workflow.errors.js';
import type { StoredWebhookToken } from '../domain/workflow.js';
import { PublishedWorkflowsService } from './published-workflows.service.js';
import { WorkflowDraftsService } from './workflow-drafts.service.js';
import { WorkflowStore } from './workflow-stores.js';

export interface WebhookView {
  url: string;
  token: string;
}

/** A workflow's incoming webhook URL: its token is stored hashed for the check and sealed for showing again. */
@Injectable()
export class WebhookUrlsService {
  constructor(
    private readonly drafts: WorkflowDraftsService,
    private readonly published: PublishedWorkflowsService,
    private readonly workflows: WorkflowStore,
    private readonly env: Env,
    private readonly secrets: SecretBox,
    private readonly audit: AuditTrail,
  ) {}

  /** Generates the webhook token once; asking again returns the same URL. */
  async generate(by: ChangeAuthor, organizationId: number, id: number): Promise<WebhookView> {
    const state = await this.published.state(id);
    if (!state || state.organizationId !== organizationId) throw new NotFoundError('workflow');
    if (!state.published || !state.current?.isDirect) throw new WebhookUnavailableError();
    const token = generateSecret('whk_');
    await this.published.change(id, async (tx) => {
      if (await this.workflows.setWebhookToken(tx, id, this.storedToken(id, token), false)) {
        await this.audit.record(tx, { organizationId, by, action: 'webhook_url.created', target: { type: 'workflow', id: String(id) } });
      }
    });
    return this.get(organizationId, id);
  }

  async get(organizationId: number, id: number): Promise<WebhookView> {
    const row = await this.drafts.findOwned(organizationId, id);
    if (!row.webhookTokenCiphertext) throw new NotFoundError('webhook');
    return this.webhookView(id, this.secrets.open(row.webhookTokenCiphertext, webhookTokenBinding(id)));
  }

  /** Operator only: replaces the token of any organization's workflow; the old one stops working at once. */
  async rotate(by: ChangeAuthor, id: number): Promise<WebhookView> {
    const token = generateSecret('whk_');
    const workflow = await this.workflows.find(id);
    if (!workflow) throw new NotFoundError('webhook');
    await this.published.change(id, async (tx) => {
      if (!(await this.workflows.setWebhookToken(tx, id, this.storedToken(id, token), true))) throw new NotFoundError('webhook');
      await this.audit.record(tx, { organizationId: workflow.organizationId, by, action: 'webhook_url.rotated', target: { type: 'workflow', id: String(id) } });
    });
    return this.webhookView(id, token);
  }

  private storedToken(id: number, token: string): StoredWebhookToken {
    return { hash: sha256(token), ciphertext: this.secrets.seal(token, webhookTokenBinding(id)) };
  }

  private webhookView(id: number, token: string): WebhookView {
    return { url: `${this.env.PUBLIC_BASE_URL}/api/external/v1/workflows/${id}/case_webhooks?token=${token}`, token };
  }
}

import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../../../shared/errors/app-error.js';
import { AuditTrail } from '../../audit/application/audit-trail.js';
import type { ChangeAuthor } from '../../audit/domain/audit-entry.js';
import { sameDefinition } from '../domain/workflow-definition.js';
import { PublishedWorkflowsService } from './published-workflows.service.js';
import { WorkflowDraftsService, type WorkflowView } from './workflow-drafts.service.js';
import { WorkflowStore, WorkflowVersionStore } from './workflow-stores.js';

@Injectable()
export class WorkflowPublishingService {
  constructor(
    private readonly drafts: WorkflowDraftsService,
    private readonly published: PublishedWorkflowsService,
    private readonly workflows: WorkflowStore,
    private readonly versions: WorkflowVersionStore,
    private readonly audit: AuditTrail,
  ) {}

  /**
   * Freezes the draft as the next version; new cases use it from the next request on. A draft
   * that is the latest version makes none: publishing is then idempotent (a retry changes
   * nothing) and republishes an unpublished workflow as it was.
   */
  async publish(by: ChangeAuthor, organizationId: number, id: number): Promise<WorkflowView> {
    const published = { organizationId, by, action: 'workflow.published', target: { type: 'workflow', id: String(id) } };
    await this.published.change(id, async (tx) => {
      const row = await this.workflows.lockOwned(tx, organizationId, id);
      if (!row) throw new NotFoundError('workflow');
      const latest = row.version === null ? null : await this.versions.get(id, row.version, tx);
      if (latest && sameDefinition(latest.definition, row.draft)) {
        if (row.published) return;
        await this.workflows.markPublished(tx, id);
        await this.audit.record(tx, { ...published, summary: { version: latest.version, new_version: false } });
        return;
      }
      const version = (row.version ?? 0) + 1;
      await this.versions.insert(tx, { workflowId: id, version, definition: row.draft, publishedBy: by.actor.name });
      await this.workflows.markPublished(tx, id, version);
      await this.audit.record(tx, { ...published, summary: { version, new_version: true } });
    });
    return this.drafts.get(organizationId, id);
  }

  /** Stops intake at once: the webhook answers 401 and the cases API refuses new cases. */
  async unpublish(by: ChangeAuthor, organizationId: number, id: number): Promise<WorkflowView> {
    await this.drafts.findOwned(organizationId, id);
    await this.published.change(id, async (tx) => {
      const row = await this.workflows.lockOwned(tx, organizationId, id);
      if (!row?.published) return;
      await this.workflows.markUnpublished(tx, id);
      await this.audit.record(tx, { organizationId, by, action: 'workflow.unpublished', target: { type: 'workflow', id: String(id) } });
    });
    return this.drafts.get(organizationId, id);
  }
}

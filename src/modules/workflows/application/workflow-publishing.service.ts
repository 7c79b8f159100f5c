import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../../../shared/errors/app-error.js';
import { sameDefinition } from '../domain/workflow-definition.js';
import { asJsonColumn, WorkflowOrmEntity } from '../infrastructure/workflow.orm-entity.js';
import { WorkflowVersionOrmEntity } from '../infrastructure/workflow-version.orm-entity.js';
import { PublishedWorkflowsService } from './published-workflows.service.js';
import { WorkflowDraftsService, type WorkflowView } from './workflow-drafts.service.js';

@Injectable()
export class WorkflowPublishingService {
  constructor(private readonly drafts: WorkflowDraftsService, private readonly published: PublishedWorkflowsService) {}

  /**
   * Freezes the draft as the next version; new cases use it from the next request on. A draft
   * that is the latest version makes none: publishing is then idempotent (a retry changes
   * nothing) and republishes an unpublished workflow as it was.
   */
  async publish(organizationId: number, id: number, publishedBy: string): Promise<WorkflowView> {
    await this.published.change(id, async (manager) => {
      const row = await manager.findOne(WorkflowOrmEntity, { where: { id, organizationId }, lock: { mode: 'pessimistic_write' } });
      if (!row) throw new NotFoundError('workflow');
      const latest = row.version === null ? null : await manager.findOneByOrFail(WorkflowVersionOrmEntity, { workflowId: id, version: row.version });
      if (latest && sameDefinition(latest.definition, row.draft)) {
        if (!row.published) await manager.update(WorkflowOrmEntity, { id }, { published: true, updatedAt: () => 'now()' });
        return;
      }
      const version = (row.version ?? 0) + 1;
      await manager.insert(WorkflowVersionOrmEntity, { workflowId: id, version, definition: asJsonColumn(row.draft), publishedBy });
      await manager.update(WorkflowOrmEntity, { id }, { published: true, version, updatedAt: () => 'now()' });
    });
    return this.drafts.get(organizationId, id);
  }

  /** Stops intake at once: the webhook answers 401 and the cases API refuses new cases. */
  async unpublish(organizationId: number, id: number): Promise<WorkflowView> {
    await this.drafts.findOwned(organizationId, id);
    await this.published.change(id, (manager) => manager.update(WorkflowOrmEntity, { id }, { published: false, updatedAt: () => 'now()' }));
    return this.drafts.get(organizationId, id);
  }
}

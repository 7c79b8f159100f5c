import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../../../shared/errors/app-error.js';
import type { ChangeAuthor } from '../../audit/domain/audit-entry.js';
import type { WorkflowDefinition } from '../domain/workflow-definition.js';
import type { PublishedVersion } from '../domain/workflow.js';
import { WorkflowDraftsService, type WorkflowView } from './workflow-drafts.service.js';
import { WorkflowVersionStore } from './workflow-stores.js';

export interface VersionSummary {
  version: number;
  published_at: string;
  published_by: string | null;
}

export interface VersionView extends VersionSummary {
  definition: WorkflowDefinition;
}

/** The versions a workflow was published as: frozen, listed, read, and restored into the draft. */
@Injectable()
export class WorkflowVersionsService {
  constructor(
    private readonly versions: WorkflowVersionStore,
    private readonly drafts: WorkflowDraftsService,
  ) {}

  /** Newest first, without their definitions (a workflow published often has many, each up to a whole definition). */
  async list(organizationId: number, workflowId: number): Promise<VersionSummary[]> {
    await this.drafts.findOwned(organizationId, workflowId);
    const rows = await this.versions.summaries(workflowId);
    return rows.map(summary);
  }

  async get(organizationId: number, workflowId: number, version: number): Promise<VersionView> {
    const row = await this.find(organizationId, workflowId, version);
    return { ...summary(row), definition: row.definition };
  }

  /**
   * The draft becomes that version's definition, checked by today's rules like any draft (a
   * version published under older rules may no longer pass them); nothing is published.
   */
  async restore(by: ChangeAuthor, organizationId: number, workflowId: number, version: number): Promise<WorkflowView> {
    const row = await this.find(organizationId, workflowId, version);
    return this.drafts.replaceDraft(by, organizationId, workflowId, row.definition, 'workflow.restored', { version });
  }

  private async find(organizationId: number, workflowId: number, version: number): Promise<PublishedVersion> {
    await this.drafts.findOwned(organizationId, workflowId);
    const row = await this.versions.find(workflowId, version);
    if (!row) throw new NotFoundError('version');
    return row;
  }
}

function summary(row: Omit<PublishedVersion, 'definition'>): VersionSummary {
  return { version: row.version, published_at: row.createdAt.toISOString(), published_by: row.publishedBy };
}

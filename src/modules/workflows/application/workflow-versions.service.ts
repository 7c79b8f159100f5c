import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { NotFoundError } from '../../../shared/errors/app-error.js';
import type { WorkflowDefinition } from '../domain/workflow-definition.js';
import { WorkflowVersionOrmEntity } from '../infrastructure/workflow-version.orm-entity.js';
import { WorkflowDraftsService, type WorkflowView } from './workflow-drafts.service.js';

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
    @InjectRepository(WorkflowVersionOrmEntity) private readonly versions: Repository<WorkflowVersionOrmEntity>,
    private readonly drafts: WorkflowDraftsService,
  ) {}

  /** Newest first, without their definitions (a workflow published often has many, each up to a whole definition). */
  async list(organizationId: number, workflowId: number): Promise<VersionSummary[]> {
    await this.drafts.findOwned(organizationId, workflowId);
    const rows = await this.versions.find({ select: { version: true, createdAt: true, publishedBy: true }, where: { workflowId }, order: { version: 'DESC' } });
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
  async restore(organizationId: number, workflowId: number, version: number): Promise<WorkflowView> {
    const row = await this.find(organizationId, workflowId, version);
    return this.drafts.replaceDraft(organizationId, workflowId, row.definition);
  }

  private async find(organizationId: number, workflowId: number, version: number): Promise<WorkflowVersionOrmEntity> {
    await this.drafts.findOwned(organizationId, workflowId);
    const row = await this.versions.findOneBy({ workflowId, version });
    if (!row) throw new NotFoundError('version');
    return row;
  }
}

function summary(row: WorkflowVersionOrmEntity): VersionSummary {
  return { version: row.version, published_at: row.createdAt.toISOString(), published_by: row.publishedBy };
}

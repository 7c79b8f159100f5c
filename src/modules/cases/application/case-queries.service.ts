import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { NotFoundError } from '../../../shared/errors/app-error.js';
import type { CaseProps } from '../domain/case.js';
import { CaseEventOrmEntity } from '../infrastructure/case-event.orm-entity.js';
import { CaseOrmEntity } from '../infrastructure/case.orm-entity.js';

export interface CaseFilter {
  workflowId?: number;
  status?: string;
  mode?: string;
  source?: string;
  limit: number;
  /** Cases with a smaller id than this (the previous page's last). */
  before?: number;
}

export interface TimelineEvent {
  id: number;
  type: string;
  by: { type: string; id?: number };
  at: string;
  [field: string]: unknown;
}

/** Read side for admins: the case list and a case's timeline, always within one organization. */
@Injectable()
export class CaseQueriesService {
  constructor(
    @InjectRepository(CaseOrmEntity) private readonly cases: Repository<CaseOrmEntity>,
    @InjectRepository(CaseEventOrmEntity) private readonly events: Repository<CaseEventOrmEntity>,
  ) {}

  /** Newest first, keyset-paginated on the id (stable under concurrent inserts). */
  async list(organizationId: number, filter: CaseFilter): Promise<{ cases: CaseProps[]; nextCursor: number | null }> {
    const query = this.cases
      .createQueryBuilder('c')
      .addSelect('c.attributes::text', 'attributes_text')
      .where('c.organization_id = :organizationId', { organizationId })
      .orderBy('c.id', 'DESC')
      .limit(filter.limit + 1);
    if (filter.workflowId !== undefined) query.andWhere('c.workflow_id = :workflowId', { workflowId: filter.workflowId });
    if (filter.status !== undefined) query.andWhere('c.status = :status', { status: filter.status });
    if (filter.mode !== undefined) query.andWhere('c.mode = :mode', { mode: filter.mode });
    if (filter.source !== undefined) query.andWhere('c.source = :source', { source: filter.source });
    if (filter.before !== undefined) query.andWhere('c.id < :before', { before: filter.before });
    const { entities, raw } = await query.getRawAndEntities<{ attributes_text: string }>();
    const page = entities.slice(0, filter.limit).map((row, i) => ({ ...row, attributes: raw[i]!.attributes_text }));
    return { cases: page, nextCursor: entities.length > filter.limit ? page[page.length - 1]!.id : null };
  }

  /** One case of the organization, whatever its workflow. */
  async get(organizationId: number, caseId: number): Promise<CaseProps> {
    const { entities, raw } = await this.cases
      .createQueryBuilder('c')
      .addSelect('c.attributes::text', 'attributes_text')
      .where('c.id = :caseId AND c.organization_id = :organizationId', { caseId, organizationId })
      .getRawAndEntities<{ attributes_text: string }>();
    if (!entities[0]) throw new NotFoundError('case');
    return { ...entities[0], attributes: raw[0]!.attributes_text };
  }

  /** Oldest first: creation, status changes, runs and their steps. */
  async timeline(organizationId: number, caseId: number): Promise<TimelineEvent[]> {
    const owned = await this.cases.existsBy({ id: caseId, organizationId });
    if (!owned) throw new NotFoundError('case');
    const rows = await this.events.find({ where: { caseId }, order: { id: 'ASC' } });
    return rows.map((row) => ({ id: row.id, type: row.type, by: actorView(row.actor), at: row.createdAt.toISOString(), ...row.data }));
  }
}

function actorView(actor: string): TimelineEvent['by'] {
  const [type, id] = actor.split(':');
  return id === undefined ? { type: type! } : { type: type!, id: Number(id) };
}

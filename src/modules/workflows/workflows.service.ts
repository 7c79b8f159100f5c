import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { QueryDeepPartialEntity, Repository } from 'typeorm';
import { CacheGeneration } from '../../shared/cache/cache-generation.js';
import { InvalidatedCache } from '../../shared/cache/invalidated-cache.js';
import { Env } from '../../shared/config/env.js';
import { NotFoundError } from '../../shared/errors/app-error.js';
import { SecretBox } from '../../shared/crypto/secret-box.js';
import { webhookTokenBinding } from '../../shared/crypto/stored-secrets.js';
import { generateSecret, sha256 } from '../tokens/token-secrets.js';
import { allStatuses, parseWorkflowDefinition, type WorkflowDefinition } from './workflow-definition.js';
import { WebhookUnavailableError, WorkflowDefinitionInvalidError } from './workflow.errors.js';
import { WorkflowOrmEntity } from './workflow.orm-entity.js';
import { WorkflowVersion, type WorkflowState } from './workflow-version.js';
import { WorkflowVersionOrmEntity } from './workflow-version.orm-entity.js';

export interface WorkflowView {
  id: number;
  name: string;
  case_source: string;
  sensitive_data: boolean;
  statuses: string[];
  attributes: WorkflowDefinition['attributes'];
  automations: WorkflowDefinition['automations'];
  default_outcome: string | null;
  published: boolean;
  version: number | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookView {
  url: string;
  token: string;
}

/** Published versions never change, so this many stay compiled in memory without invalidation. */
const VERSION_CACHE_SIZE = 1_000;

@Injectable()
export class WorkflowsService {
  private readonly states: InvalidatedCache<WorkflowState>;
  private readonly versions = new Map<string, WorkflowVersion>();

  constructor(
    @InjectRepository(WorkflowOrmEntity) private readonly workflows: Repository<WorkflowOrmEntity>,
    @InjectRepository(WorkflowVersionOrmEntity) private readonly versionRows: Repository<WorkflowVersionOrmEntity>,
    private readonly env: Env,
    private readonly secrets: SecretBox,
    generations: CacheGeneration,
  ) {
    this.states = new InvalidatedCache(generations, 60_000);
  }

  async create(organizationId: number, input: unknown): Promise<WorkflowView> {
    const draft = parseOrThrow(input);
    const row = await this.workflows.save(this.workflows.create({ organizationId, draft }));
    return toView(await this.workflows.findOneByOrFail({ id: row.id }));
  }

  async list(organizationId: number): Promise<WorkflowView[]> {
    return (await this.workflows.find({ where: { organizationId }, order: { id: 'ASC' } })).map(toView);
  }

  async get(organizationId: number, id: number): Promise<WorkflowView> {
    return toView(await this.findOwned(organizationId, id));
  }

  /** Replaces the draft; published versions and running cases are not affected. */
  async replaceDraft(organizationId: number, id: number, input: unknown): Promise<WorkflowView> {
    const draft = parseOrThrow(input);
    await this.findOwned(organizationId, id);
    await this.workflows.update({ id }, { draft: asJsonColumn(draft), updatedAt: () => 'now()' });
    return this.get(organizationId, id);
  }

  /** Freezes the draft as the next version; new cases use it from the next request on. */
  async publish(organizationId: number, id: number): Promise<WorkflowView> {
    await this.states.change(String(id), async (manager) => {
      const row = await manager.findOne(WorkflowOrmEntity, { where: { id, organizationId }, lock: { mode: 'pessimistic_write' } });
      if (!row) throw new NotFoundError('workflow');
      const version = (row.version ?? 0) + 1;
      await manager.insert(WorkflowVersionOrmEntity, { workflowId: id, version, definition: asJsonColumn(row.draft) });
      await manager.update(WorkflowOrmEntity, { id }, { published: true, version, updatedAt: () => 'now()' });
    });
    return this.get(organizationId, id);
  }

  /** Stops intake at once: the webhook answers 401 and the cases API refuses new cases. */
  async unpublish(organizationId: number, id: number): Promise<WorkflowView> {
    await this.findOwned(organizationId, id);
    await this.states.change(String(id), (manager) => manager.update(WorkflowOrmEntity, { id }, { published: false, updatedAt: () => 'now()' }));
    return this.get(organizationId, id);
  }

  /** Generates the webhook token once; asking again returns the same URL. */
  async generateWebhook(organizationId: number, id: number): Promise<WebhookView> {
    const state = await this.state(id);
    if (!state || state.organizationId !== organizationId) throw new NotFoundError('workflow');
    if (!state.published || !state.current?.isDirect) throw new WebhookUnavailableError();
    const token = generateSecret('whk_');
    await this.states.change(String(id), (manager) => manager
      .createQueryBuilder()
      .update(WorkflowOrmEntity)
      .set({ webhookTokenHash: sha256(token), webhookTokenCiphertext: this.secrets.seal(token, webhookTokenBinding(id)) })
      .where('id = :id AND webhook_token_hash IS NULL', { id })
      .execute());
    return this.getWebhook(organizationId, id);
  }

  async getWebhook(organizationId: number, id: number): Promise<WebhookView> {
    const row = await this.findOwned(organizationId, id);
    if (!row.webhookTokenCiphertext) throw new NotFoundError('webhook');
    return this.webhookView(id, this.secrets.open(row.webhookTokenCiphertext, webhookTokenBinding(id)));
  }

  /** Operator only: replaces the token of any organization's workflow; the old one stops working at once. */
  async rotateWebhook(id: number): Promise<WebhookView> {
    const token = generateSecret('whk_');
    await this.states.change(String(id), async (manager) => {
      const result = await manager
        .createQueryBuilder()
        .update(WorkflowOrmEntity)
        .set({ webhookTokenHash: sha256(token), webhookTokenCiphertext: this.secrets.seal(token, webhookTokenBinding(id)) })
        .where('id = :id AND webhook_token_hash IS NOT NULL', { id })
        .execute();
      if (!result.affected) throw new NotFoundError('webhook');
    });
    return this.webhookView(id, token);
  }

  /** The workflow as intake sees it (cached on every instance, dropped everywhere on change). */
  state(id: number): Promise<WorkflowState | undefined> {
    return this.states.get(String(id), async () => {
      const row = await this.workflows.findOneBy({ id });
      if (!row) return undefined;
      return {
        id: row.id,
        organizationId: row.organizationId,
        published: row.published,
        webhookTokenHash: row.webhookTokenHash,
        current: row.version === null ? null : await this.version(id, row.version),
      };
    });
  }

  /** A published version, compiled once per process. */
  async version(workflowId: number, version: number): Promise<WorkflowVersion> {
    const key = `${workflowId}:${version}`;
    const cached = this.versions.get(key);
    if (cached) return cached;
    const row = await this.versionRows.findOneByOrFail({ workflowId, version });
    const compiled = new WorkflowVersion(workflowId, version, row.definition);
    if (this.versions.size >= VERSION_CACHE_SIZE) this.versions.delete(this.versions.keys().next().value!);
    this.versions.set(key, compiled);
    return compiled;
  }

  private async findOwned(organizationId: number, id: number): Promise<WorkflowOrmEntity> {
    const row = await this.workflows.findOneBy({ id, organizationId });
    if (!row) throw new NotFoundError('workflow');
    return row;
  }

  private webhookView(id: number, token: string): WebhookView {
    return { url: `${this.env.PUBLIC_BASE_URL}/api/external/v1/workflows/${id}/case_webhooks?token=${token}`, token };
  }
}

function parseOrThrow(input: unknown): WorkflowDefinition {
  const result = parseWorkflowDefinition(input);
  if (!result.ok) throw new WorkflowDefinitionInvalidError(result.problems);
  return result.definition;
}

/** TypeORM's deep-partial type cannot follow `unknown` inside a jsonb document; the value is stored whole. */
function asJsonColumn(definition: WorkflowDefinition): QueryDeepPartialEntity<WorkflowDefinition> {
  return definition as QueryDeepPartialEntity<WorkflowDefinition>;
}

function toView(row: WorkflowOrmEntity): WorkflowView {
  const d = row.draft;
  return {
    id: row.id,
    name: d.name,
    case_source: d.case_source,
    sensitive_data: d.sensitive_data,
    statuses: allStatuses(d),
    attributes: d.attributes,
    automations: d.automations,
    default_outcome: d.default_outcome,
    published: row.published,
    version: row.version,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

import { Injectable } from '@nestjs/common';
import { CacheGeneration } from '../../../shared/cache/cache-generation.js';
import { InvalidatedCache } from '../../../shared/cache/invalidated-cache.js';
import { SecretBox } from '../../../shared/crypto/secret-box.js';
import { webhookVerificationBinding } from '../../../shared/crypto/stored-secrets.js';
import type { Transaction } from '../../../shared/database/transaction.js';
import type { SignatureCheck } from '../domain/signature-schemes.js';
import { WorkflowVersion, type WorkflowState } from '../domain/workflow-version.js';
import { SenderSchemeRegistry } from './sender-scheme-registry.js';
import { WebhookVerificationStore, WorkflowStore, WorkflowVersionStore } from './workflow-stores.js';

/** Published versions never change, so this many stay compiled in memory without invalidation. */
const VERSION_CACHE_SIZE = 1_000;

/**
 * What intake and automation read on every request: a workflow's published state and its
 * compiled versions. Every change to what intake sees goes through `change`, so that all
 * instances drop their cached state.
 */
@Injectable()
export class PublishedWorkflowsService {
  private readonly states: InvalidatedCache<WorkflowState>;
  private readonly versions = new Map<string, WorkflowVersion>();

  constructor(
    private readonly workflows: WorkflowStore,
    private readonly versionRows: WorkflowVersionStore,
    private readonly verifications: WebhookVerificationStore,
    private readonly secrets: SecretBox,
    private readonly schemes: SenderSchemeRegistry,
    generations: CacheGeneration,
  ) {
    this.states = new InvalidatedCache(generations, 'workflow-states', 60_000);
  }

  /** The workflow as intake sees it (cached on every instance, dropped everywhere on change). */
  state(id: number): Promise<WorkflowState | undefined> {
    return this.states.get(String(id), async () => {
      const row = await this.workflows.find(id);
      if (!row) return undefined;
      return {
        id: row.id,
        organizationId: row.organizationId,
        published: row.published,
        webhookTokenHash: row.webhookTokenHash,
        // Read with the token it guards, so the webhook's one cached look-up carries both.
        webhookSignature: row.webhookTokenHash === null ? null : await this.webhookSignature(id),
        current: row.version === null ? null : await this.version(id, row.version),
      };
    });
  }

  private async webhookSignature(workflowId: number): Promise<SignatureCheck | null> {
    const row = await this.verifications.find(workflowId);
    return row === undefined ? null : this.schemes.check(row.options, this.secrets.open(row.secretCiphertext, webhookVerificationBinding(workflowId)));
  }

  /** Every workflow published at least once, of every organization (the search indexer follows their cases). */
  everPublished(): Promise<{ id: number; organizationId: number }[]> {
    return this.workflows.everPublished();
  }

  /** A published version, compiled once per process. */
  async version(workflowId: number, version: number): Promise<WorkflowVersion> {
    const key = `${workflowId}:${version}`;
    const cached = this.versions.get(key);
    if (cached) return cached;
    const row = await this.versionRows.get(workflowId, version);
    const compiled = new WorkflowVersion(workflowId, version, row.definition);
    if (this.versions.size >= VERSION_CACHE_SIZE) this.versions.delete(this.versions.keys().next().value!);
    this.versions.set(key, compiled);
    return compiled;
  }

  /** Runs a change of the workflow's published state, webhook token or verification in the transaction that invalidates its cached state. */
  change<T>(id: number, change: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.states.change(String(id), change);
  }
}

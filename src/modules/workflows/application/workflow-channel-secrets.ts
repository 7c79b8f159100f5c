import { Injectable } from '@nestjs/common';
import { CacheGeneration } from '../../../shared/cache/cache-generation.js';
import { InvalidatedCache } from '../../../shared/cache/invalidated-cache.js';
import { RecentMisses } from '../../../shared/cache/recent-misses.js';
import { SecretBox, type SecretBinding } from '../../../shared/crypto/secret-box.js';
import { type Transaction, TransactionRunner } from '../../../shared/database/transaction.js';
import { AppError, NotFoundError } from '../../../shared/errors/app-error.js';
import { AuditTrail } from '../../audit/application/audit-trail.js';
import type { ChangeAuthor } from '../../audit/domain/audit-entry.js';
import type { WorkflowVersion } from '../domain/workflow-version.js';
import type { ChannelSecretStore, StoredChannelSecret } from './channel-secret-store.js';
import { PublishedWorkflowsService } from './published-workflows.service.js';
import { WorkflowDraftsService } from './workflow-drafts.service.js';

/** What sets one channel's secrets apart from another's (an inbound address, a form URL). */
export interface WorkflowChannel {
  /** What a 404 names: `email address`, `form`. */
  noun: string;
  /** What its audit entries' actions start with: `email_address`, `form`. */
  audited: string;
  /** Whether a version takes cases through this channel (its case source). */
  takes(version: WorkflowVersion): boolean;
  unavailable(): AppError;
  newSecret(): string;
  hash(secret: string): Buffer;
  /** Binds a sealed secret to its workflow, so a ciphertext copied to another row does not open. */
  binding(workflowId: number): SecretBinding;
}

/** The workflow a channel secret reaches right now, and the version its cases start on. */
export interface ChannelTarget {
  organizationId: number;
  version: WorkflowVersion;
}

/**
 * A workflow's secret for one channel: generated once, shown again (as `shown` makes it: an
 * address, a URL), rotated by the operator. Which workflow a secret reaches is cached on every
 * instance; a rotation bumps cache_generation in its own transaction, so every instance refuses
 * the old secret within 1 s (see CacheGeneration), as it does a rotated webhook token.
 */
/** What every channel's secrets are kept with: one provider, so a channel's service asks for it once. */
@Injectable()
export class ChannelSecretKeeping {
  constructor(
    readonly published: PublishedWorkflowsService,
    readonly drafts: WorkflowDraftsService,
    readonly secrets: SecretBox,
    readonly generations: CacheGeneration,
    readonly transactions: TransactionRunner,
    readonly audit: AuditTrail,
  ) {}
}

/**
 * How long a secret no row has is remembered: a stranger trying made-up secrets (unknown
 * recipients at RCPT TO, form URLs) costs a look-up per new guess, not per try. A secret a row
 * gets (generated, rotated) is random, so it was never missed; this instance forgets it anyway.
 */
const MISS_TTL_MS = 5_000;

export abstract class WorkflowChannelSecrets {
  private readonly workflowByHash: InvalidatedCache<number>;
  private readonly unknownHashes: RecentMisses;

  constructor(
    private readonly channel: WorkflowChannel,
    private readonly rows: ChannelSecretStore,
    private readonly keeping: ChannelSecretKeeping,
  ) {
    const cacheName = `${channel.noun} secrets`;
    this.workflowByHash = new InvalidatedCache(keeping.generations, cacheName, 60_000);
    this.unknownHashes = new RecentMisses(keeping.generations, cacheName, MISS_TTL_MS);
  }

  /** The secret as its users see it: the address, the URL. */
  protected abstract shown(secret: string): string;

  /** Generates the secret once; asking again shows the same one. */
  async generate(by: ChangeAuthor, organizationId: number, workflowId: number): Promise<string> {
    const state = await this.keeping.published.state(workflowId);
    if (!state || state.organizationId !== organizationId) throw new NotFoundError('workflow');
    if (!state.published || !state.current || !this.channel.takes(state.current)) throw this.channel.unavailable();
    const columns = this.secretColumns(workflowId, this.channel.newSecret());
    await this.keeping.transactions.run(async (tx) => {
      if (await this.rows.insertIfAbsent(tx, workflowId, columns)) await this.record(tx, by, organizationId, workflowId, 'created');
    });
    this.unknownHashes.forget(columns.secretHash.toString('hex'));
    return this.get(organizationId, workflowId);
  }

  async get(organizationId: number, workflowId: number): Promise<string> {
    await this.keeping.drafts.findOwned(organizationId, workflowId);
    const row = await this.rows.find(workflowId);
    if (!row) throw new NotFoundError(this.channel.noun);
    return this.shown(this.keeping.secrets.open(row.secretCiphertext, this.channel.binding(workflowId)));
  }

  /** Operator only: replaces the secret of any organization's workflow; the old one is refused at once. */
  async rotate(by: ChangeAuthor, workflowId: number): Promise<string> {
    const current = await this.rows.find(workflowId);
    const state = await this.keeping.published.state(workflowId);
    if (!current || !state) throw new NotFoundError(this.channel.noun);
    const secret = this.channel.newSecret();
    const columns = this.secretColumns(workflowId, secret);
    await this.workflowByHash.change(current.secretHash.toString('hex'), async (tx) => {
      if (!(await this.rows.replace(tx, workflowId, columns))) throw new NotFoundError(this.channel.noun);
      await this.record(tx, by, state.organizationId, workflowId, 'rotated');
    });
    this.unknownHashes.forget(columns.secretHash.toString('hex'));
    return this.shown(secret);
  }

  /** The workflow `secret` reaches: null unless it is the current secret of a workflow published to take cases this way right now. */
  protected async resolveSecret(secret: string): Promise<ChannelTarget | null> {
    const hash = this.channel.hash(secret);
    const key = hash.toString('hex');
    const missed = this.unknownHashes.check(key);
    if (missed.known) return null;
    const workflowId = await this.workflowByHash.get(key, () => this.rows.workflowIdByHash(hash));
    if (workflowId === undefined) {
      this.unknownHashes.missed(key, missed.generation);
      return null;
    }
    const state = await this.keeping.published.state(workflowId);
    if (!state?.published || !state.current || !this.channel.takes(state.current)) return null;
    return { organizationId: state.organizationId, version: state.current };
  }

  /** The entry names the workflow only: the secret is the address or URL itself. */
  private record(tx: Transaction, by: ChangeAuthor, organizationId: number, workflowId: number, verb: string): Promise<void> {
    return this.keeping.audit.record(tx, { organizationId, by, action: `${this.channel.audited}.${verb}`, target: { type: 'workflow', id: String(workflowId) } });
  }

  private secretColumns(workflowId: number, secret: string): StoredChannelSecret {
    return { secretHash: this.channel.hash(secret), secretCiphertext: this.keeping.secrets.seal(secret, this.channel.binding(workflowId)) };
  }
}

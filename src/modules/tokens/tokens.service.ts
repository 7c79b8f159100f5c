import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, type Repository } from 'typeorm';
import { CacheGeneration } from '../../shared/cache/cache-generation.js';
import { InvalidatedCache } from '../../shared/cache/invalidated-cache.js';
import { Env } from '../../shared/config/env.js';
import { type OrganizationCap, storeWithinCap } from '../../shared/database/organization-caps.js';
import { TransactionRunner } from '../../shared/database/transaction.js';
import { NotFoundError, UnauthorizedError } from '../../shared/errors/app-error.js';
import { AccessTokenOrmEntity, type TokenScope } from './access-token.orm-entity.js';
import type { Principal } from './principal.js';
import { sha256 } from '../../shared/crypto/sha256.js';
import { generateSecret } from './token-secrets.js';

const PREFIX: Record<TokenScope, 'adm_' | 'api_'> = { admin: 'adm_', api: 'api_' };
/** `last_used_at` is a hint for admins; writing it at most once a minute per token keeps it off the hot path. */
const LAST_USED_RESOLUTION_MS = 60_000;

const TOKENS_CAP: OrganizationCap = { what: 'tokens', table: 'access_tokens', live: 'deleted_at IS NULL', setting: 'MAX_TOKENS_PER_ORGANIZATION' };

export interface TokenView {
  id: number;
  name: string;
  scope: TokenScope;
  created_at: string;
  last_used_at: string | null;
}

@Injectable()
export class TokensService {
  private readonly principals: InvalidatedCache<Principal>;
  private readonly lastUseWritten = new Map<number, number>();

  constructor(
    @InjectRepository(AccessTokenOrmEntity) private readonly tokens: Repository<AccessTokenOrmEntity>,
    generations: CacheGeneration,
    private readonly transactions: TransactionRunner,
    private readonly env: Env,
  ) {
    this.principals = new InvalidatedCache(generations, 'access-tokens', 60_000);
  }

  async create(organizationId: number, name: string, scope: TokenScope): Promise<{ token: TokenView; secret: string }> {
    const secret = generateSecret(PREFIX[scope]);
    const id = await storeWithinCap(this.transactions, this.env, organizationId, TOKENS_CAP, async (m) => (await m.save(m.create(AccessTokenOrmEntity, { organizationId, name, scope, tokenHash: sha256(secret) }))).id);
    const stored = await this.tokens.findOneByOrFail({ id });
    return { token: toView(stored), secret };
  }

  async list(organizationId: number): Promise<TokenView[]> {
    const rows = await this.tokens.find({ where: { organizationId, deletedAt: IsNull() }, order: { id: 'ASC' } });
    return rows.map(toView);
  }

  async delete(organizationId: number, id: number): Promise<void> {
    const row = await this.tokens.findOne({ where: { id, organizationId, deletedAt: IsNull() }, select: { id: true, tokenHash: true } });
    if (!row) throw new NotFoundError('token');
    await this.principals.change(row.tokenHash.toString('hex'), (manager) => manager.update(AccessTokenOrmEntity, { id }, { deletedAt: () => 'now()' }));
  }

  /** One answer for a missing, malformed, unknown, deleted or wrong-scope token: 401. */
  async authenticate(secret: string | undefined, scope: TokenScope): Promise<Principal> {
    if (!secret?.startsWith(PREFIX[scope])) throw new UnauthorizedError();
    const hash = sha256(secret);
    const principal = await this.principals.get(hash.toString('hex'), async () => {
      const row = await this.tokens.findOne({ where: { tokenHash: hash, deletedAt: IsNull() }, select: { id: true, organizationId: true, scope: true, name: true } });
      return row ? { tokenId: row.id, organizationId: row.organizationId, scope: row.scope, name: row.name } : undefined;
    });
    if (!principal || principal.scope !== scope) throw new UnauthorizedError();
    this.recordUse(principal.tokenId);
    return principal;
  }

  private recordUse(tokenId: number): void {
    const now = Date.now();
    if (now - (this.lastUseWritten.get(tokenId) ?? 0) < LAST_USED_RESOLUTION_MS) return;
    this.lastUseWritten.set(tokenId, now);
    this.tokens.update({ id: tokenId }, { lastUsedAt: () => 'now()' }).catch(() => this.lastUseWritten.delete(tokenId));
  }
}

function toView(row: AccessTokenOrmEntity): TokenView {
  return {
    id: row.id,
    name: row.name,
    scope: row.scope,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
  };
}

import { Injectable } from '@nestjs/common';
import { CacheGeneration } from '../../../shared/cache/cache-generation.js';
import { InvalidatedCache } from '../../../shared/cache/invalidated-cache.js';
import { sha256 } from '../../../shared/crypto/sha256.js';
import { type Transaction, TransactionRunner } from '../../../shared/database/transaction.js';
import { NotFoundError, UnauthorizedError } from '../../../shared/errors/app-error.js';
import { AuditTrail } from '../../audit/application/audit-trail.js';
import type { ChangeAuthor } from '../../audit/domain/audit-entry.js';
import type { AccessToken, TokenScope } from '../domain/access-token.js';
import type { TokenPrincipal } from '../domain/principal.js';
import { generateSecret } from '../domain/token-secrets.js';
import { TokenStore } from './token-store.js';

const PREFIX: Record<TokenScope, 'adm_' | 'api_'> = { admin: 'adm_', api: 'api_' };
/** `last_used_at` is a hint for admins; writing it at most once a minute per token keeps it off the hot path. */
const LAST_USED_RESOLUTION_MS = 60_000;

export interface TokenView {
  id: number;
  name: string;
  scope: TokenScope;
  created_at: string;
  last_used_at: string | null;
}

@Injectable()
export class TokensService {
  private readonly principals: InvalidatedCache<TokenPrincipal>;
  private readonly lastUseWritten = new Map<number, number>();

  constructor(
    private readonly tokens: TokenStore,
    generations: CacheGeneration,
    private readonly transactions: TransactionRunner,
    private readonly audit: AuditTrail,
  ) {
    this.principals = new InvalidatedCache(generations, 'access-tokens', 60_000);
  }

  async create(by: ChangeAuthor, organizationId: number, name: string, scope: TokenScope): Promise<{ token: TokenView; secret: string }> {
    return this.transactions.run((tx) => this.createIn(tx, by, organizationId, name, scope));
  }

  /** As `create`, in `tx` (a new organization's first token comes with the organization). */
  async createIn(tx: Transaction, by: ChangeAuthor, organizationId: number, name: string, scope: TokenScope): Promise<{ token: TokenView; secret: string }> {
    const secret = generateSecret(PREFIX[scope]);
    const token = await this.tokens.create(tx, organizationId, name, scope, sha256(secret));
    await this.audit.record(tx, { organizationId, by, action: 'token.created', target: { type: 'token', id: String(token.id) }, summary: { name, scope } });
    return { token: toView(token), secret };
  }

  async list(organizationId: number): Promise<TokenView[]> {
    return (await this.tokens.listLive(organizationId)).map(toView);
  }

  /** The names of the organization's tokens with these ids, deleted ones too. */
  names(organizationId: number, ids: readonly number[]): Promise<Map<number, string>> {
    return this.tokens.names(organizationId, ids);
  }

  async delete(by: ChangeAuthor, organizationId: number, id: number): Promise<void> {
    const tokenHash = await this.tokens.liveTokenHash(organizationId, id);
    if (!tokenHash) throw new NotFoundError('token');
    await this.principals.change(tokenHash.toString('hex'), async (tx) => {
      await this.tokens.markDeleted(tx, id);
      await this.audit.record(tx, { organizationId, by, action: 'token.deleted', target: { type: 'token', id: String(id) } });
    });
  }

  /** One answer for a missing, malformed, unknown, deleted or wrong-scope token: 401. */
  async authenticate(secret: string | undefined, scope: TokenScope): Promise<TokenPrincipal> {
    if (!secret?.startsWith(PREFIX[scope])) throw new UnauthorizedError();
    const hash = sha256(secret);
    const principal = await this.principals.get(hash.toString('hex'), () => this.tokens.principalByHash(hash));
    if (!principal || principal.scope !== scope) throw new UnauthorizedError();
    this.recordUse(principal.tokenId);
    return principal;
  }

  private recordUse(tokenId: number): void {
    const now = Date.now();
    if (now - (this.lastUseWritten.get(tokenId) ?? 0) < LAST_USED_RESOLUTION_MS) return;
    this.lastUseWritten.set(tokenId, now);
    this.tokens.recordUse(tokenId).catch(() => this.lastUseWritten.delete(tokenId));
  }
}

function toView(token: AccessToken): TokenView {
  return {
    id: token.id,
    name: token.name,
    scope: token.scope,
    created_at: token.createdAt.toISOString(),
    last_used_at: token.lastUsedAt?.toISOString() ?? null,
  };
}

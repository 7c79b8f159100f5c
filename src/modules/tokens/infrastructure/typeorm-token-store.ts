import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, IsNull, type Repository } from 'typeorm';
import { Env } from '../../../shared/config/env.js';
import { CAP_COUNT, capCountSql, type OrganizationCap, storeWithinCap } from '../../../shared/database/organization-caps.js';
import { statement } from './persistence.js';
import type { Transaction } from '../../../shared/database/transaction.js';
import { entityManager } from '../../../shared/database/typeorm-transaction-runner.js';
import { TokenStore } from '../application/token-store.js';
import type { AccessToken, TokenScope } from '../domain/access-token.js';
import type { TokenPrincipal } from '../domain/principal.js';
import { AccessTokenOrmEntity } from './access-token.orm-entity.js';

const TOKENS_CAP: OrganizationCap = { what: 'tokens', count: statement(capCountSql('access_tokens', 'deleted_at IS NULL'), CAP_COUNT), setting: 'MAX_TOKENS_PER_ORGANIZATION' };

@Injectable()
export class TypeOrmTokenStore extends TokenStore {
  constructor(
    @InjectRepository(AccessTokenOrmEntity) private readonly tokens: Repository<AccessTokenOrmEntity>,
    private readonly env: Env,
  ) {
    super();
  }

  async create(tx: Transaction, organizationId: number, name: string, scope: TokenScope, tokenHash: Buffer): Promise<AccessToken> {
    const id = await storeWithinCap(tx, this.env, organizationId, TOKENS_CAP, async (m) => (await m.save(m.create(AccessTokenOrmEntity, { organizationId, name, scope, tokenHash }))).id);
    // Read back for created_at, which the database sets.
    return entityManager(tx).findOneByOrFail(AccessTokenOrmEntity, { id });
  }

  listLive(organizationId: number): Promise<AccessToken[]> {
    return this.tokens.find({ where: { organizationId, deletedAt: IsNull() }, order: { id: 'ASC' } });
  }

  async liveTokenHash(organizationId: number, id: number): Promise<Buffer | undefined> {
    const row = await this.tokens.findOne({ where: { id, organizationId, deletedAt: IsNull() }, select: { id: true, tokenHash: true } });
    return row?.tokenHash;
  }

  async markDeleted(tx: Transaction, id: number): Promise<void> {
    await entityManager(tx).update(AccessTokenOrmEntity, { id }, { deletedAt: () => 'now()' });
  }

  async names(organizationId: number, ids: readonly number[]): Promise<Map<number, string>> {
    if (!ids.length) return new Map();
    const rows = await this.tokens.find({ where: { organizationId, id: In([...ids]) }, select: { id: true, name: true } });
    return new Map(rows.map((row) => [row.id, row.name]));
  }

  async principalByHash(tokenHash: Buffer): Promise<TokenPrincipal | undefined> {
    const row = await this.tokens.findOne({ where: { tokenHash, deletedAt: IsNull() }, select: { id: true, organizationId: true, scope: true, name: true } });
    return row ? { kind: 'token', tokenId: row.id, organizationId: row.organizationId, scope: row.scope, name: row.name } : undefined;
  }

  async recordUse(id: number): Promise<void> {
    await this.tokens.update({ id }, { lastUsedAt: () => 'now()' });
  }
}

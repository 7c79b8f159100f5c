import { Column, Entity } from 'typeorm';
import type { TokenScope } from '../domain/access-token.js';
import { bigintId } from '../../../shared/database/bigint-id.transformer.js';

@Entity('access_tokens')
export class AccessTokenOrmEntity {
  @Column({ type: 'bigint', primary: true, generated: 'identity', generatedIdentity: 'ALWAYS', transformer: bigintId })
  id: number;

  @Column({ name: 'organization_id', type: 'bigint', transformer: bigintId })
  organizationId: number;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'text' })
  scope: TokenScope;

  @Column({ name: 'token_hash', type: 'bytea', select: false })
  tokenHash: Buffer;

  @Column({ name: 'created_at', type: 'timestamptz', insert: false })
  createdAt: Date;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;

  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true })
  deletedAt: Date | null;
}

import { Column, Entity, type QueryDeepPartialEntity } from 'typeorm';
import { bigintId } from '../../../shared/database/bigint-id.transformer.js';
import type { WorkflowDefinition } from '../domain/workflow-definition.js';

@Entity('workflows')
export class WorkflowOrmEntity {
  @Column({ type: 'bigint', primary: true, generated: 'identity', generatedIdentity: 'ALWAYS', transformer: bigintId })
  id: number;

  @Column({ name: 'organization_id', type: 'bigint', transformer: bigintId })
  organizationId: number;

  /** json, not jsonb: it keeps the definition's keys in the order saved. */
  @Column({ type: 'json' })
  draft: WorkflowDefinition;

  @Column({ type: 'boolean', default: false })
  published: boolean;

  /** Latest published version, null until the first publish. */
  @Column({ type: 'integer', nullable: true })
  version: number | null;

  @Column({ name: 'webhook_token_hash', type: 'bytea', nullable: true })
  webhookTokenHash: Buffer | null;

  @Column({ name: 'webhook_token_ciphertext', type: 'text', nullable: true })
  webhookTokenCiphertext: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', insert: false, update: false })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', insert: false })
  updatedAt: Date;
}

/** TypeORM's deep-partial type cannot follow `unknown` inside a json document; the value is stored whole. */
export function asJsonColumn(definition: WorkflowDefinition): QueryDeepPartialEntity<WorkflowDefinition> {
  return definition as QueryDeepPartialEntity<WorkflowDefinition>;
}

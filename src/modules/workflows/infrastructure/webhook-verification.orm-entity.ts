import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintId } from '../../../shared/database/bigint-id.transformer.js';
import type { StoredVerificationOptions } from '../domain/webhook-verification.js';

/** The signature a workflow's webhook requires: the scheme, its options (defaults filled in) and the sealed secret. */
@Entity('webhook_verifications')
export class WebhookVerificationOrmEntity {
  @PrimaryColumn({ name: 'workflow_id', type: 'bigint', transformer: bigintId })
  workflowId: number;

  @Column({ type: 'text' })
  scheme: string;

  /** The whole options, `scheme` included, so they read back as one value. */
  @Column({ type: 'jsonb' })
  options: StoredVerificationOptions;

  @Column({ name: 'secret_ciphertext', type: 'text' })
  secretCiphertext: string;

  @Column({ name: 'created_at', type: 'timestamptz', insert: false, update: false })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}

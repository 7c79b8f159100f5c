import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintId } from '../../../shared/database/bigint-id.transformer.js';
import type { SignatureScheme, VerificationOptions } from '../domain/signature-schemes.js';

/** The signature a workflow's webhook requires: the scheme, its options (defaults filled in) and the sealed secret. */
@Entity('webhook_verifications')
export class WebhookVerificationOrmEntity {
  @PrimaryColumn({ name: 'workflow_id', type: 'bigint', transformer: bigintId })
  workflowId: number;

  @Column({ type: 'text' })
  scheme: SignatureScheme;

  /** The whole VerificationOptions, `scheme` included, so it reads back as one typed value. */
  @Column({ type: 'jsonb' })
  options: VerificationOptions;

  @Column({ name: 'secret_ciphertext', type: 'text' })
  secretCiphertext: string;

  @Column({ name: 'created_at', type: 'timestamptz', insert: false, update: false })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}

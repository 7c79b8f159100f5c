import { Column, PrimaryColumn } from 'typeorm';
import { bigintId } from './bigint-id.transformer.js';

/**
 * The columns of every table that keeps a workflow's channel secret (its inbound email address,
 * its form URL): the secret hashed, to find the workflow, and sealed, to show it again.
 */
export abstract class ChannelSecretColumns {
  @PrimaryColumn({ name: 'workflow_id', type: 'bigint', transformer: bigintId })
  workflowId: number;

  @Column({ name: 'secret_hash', type: 'bytea' })
  secretHash: Buffer;

  @Column({ name: 'secret_ciphertext', type: 'text' })
  secretCiphertext: string;

  @Column({ name: 'created_at', type: 'timestamptz', insert: false, update: false })
  createdAt: Date;

  @Column({ name: 'rotated_at', type: 'timestamptz', nullable: true })
  rotatedAt: Date | null;
}

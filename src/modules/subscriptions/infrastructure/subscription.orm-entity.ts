import { Column, Entity } from 'typeorm';
import { bigintId } from '../../../shared/database/bigint-id.transformer.js';

@Entity('subscriptions')
export class SubscriptionOrmEntity {
  @Column({ type: 'bigint', primary: true, generated: 'identity', generatedIdentity: 'ALWAYS', transformer: bigintId })
  id: number;

  @Column({ name: 'organization_id', type: 'bigint', transformer: bigintId })
  organizationId: number;

  @Column({ type: 'text' })
  url: string;

  @Column({ type: 'text', array: true })
  events: string[];

  @Column({ name: 'workflow_ids', type: 'bigint', array: true, nullable: true })
  workflowIds: string[] | null;

  @Column({ name: 'secret_ciphertext', type: 'text', select: false })
  secretCiphertext: string;

  /** The secret a rotation replaced, still signing until `previousSecretExpiresAt`: only the rotation's statement writes them, only deliveries read them. */
  @Column({ name: 'previous_secret_ciphertext', type: 'text', nullable: true, select: false, insert: false, update: false })
  previousSecretCiphertext: string | null;

  @Column({ name: 'previous_secret_expires_at', type: 'timestamptz', nullable: true, select: false, insert: false, update: false })
  previousSecretExpiresAt: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz', insert: false, update: false })
  createdAt: Date;

  @Column({ name: 'failing_since', type: 'timestamptz', nullable: true })
  failingSince: Date | null;

  @Column({ name: 'disabled_at', type: 'timestamptz', nullable: true })
  disabledAt: Date | null;

  @Column({ name: 'disabled_reason', type: 'text', nullable: true })
  disabledReason: string | null;

  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true })
  deletedAt: Date | null;
}

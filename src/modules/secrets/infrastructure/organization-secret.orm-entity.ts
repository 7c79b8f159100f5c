import { Column, Entity } from 'typeorm';
import { bigintId } from '../../../shared/database/bigint-id.transformer.js';

/** An organization secret for automation; only its sealed value is stored. */
@Entity('organization_secrets')
export class OrganizationSecretOrmEntity {
  @Column({ name: 'organization_id', type: 'bigint', primary: true, transformer: bigintId })
  organizationId: number;

  @Column({ type: 'text', primary: true })
  name: string;

  @Column({ name: 'value_ciphertext', type: 'text', select: false })
  valueCiphertext: string;

  @Column({ name: 'created_at', type: 'timestamptz', insert: false, update: false })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', insert: false })
  updatedAt: Date;
}

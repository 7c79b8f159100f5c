import { Column, Entity } from 'typeorm';
import { bigintId } from '../../../shared/database/bigint-id.transformer.js';

@Entity('organizations')
export class OrganizationOrmEntity {
  @Column({ type: 'bigint', primary: true, generated: 'identity', generatedIdentity: 'ALWAYS', transformer: bigintId })
  id: number;

  @Column({ type: 'text' })
  name: string;

  @Column({ name: 'created_at', type: 'timestamptz', insert: false })
  createdAt: Date;
}

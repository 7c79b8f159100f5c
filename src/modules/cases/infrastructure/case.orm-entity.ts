import { Column, Entity } from 'typeorm';
import { bigintId } from '../../../shared/database/bigint-id.transformer.js';
import type { CaseMode, CaseSource } from '../domain/case.js';

/**
 * The `cases` table. `attributes` is read as text (`attributes::text`) by the repository, so
 * numbers beyond 2^53 and long decimals come back exactly as Postgres stores them.
 */
@Entity('cases')
export class CaseOrmEntity {
  @Column({ type: 'bigint', primary: true, generated: 'identity', generatedIdentity: 'ALWAYS', transformer: bigintId })
  id: number;

  @Column({ name: 'organization_id', type: 'bigint', transformer: bigintId })
  organizationId: number;

  @Column({ name: 'workflow_id', type: 'bigint', transformer: bigintId })
  workflowId: number;

  @Column({ name: 'workflow_version', type: 'integer' })
  workflowVersion: number;

  @Column({ type: 'text' })
  subject: string;

  @Column({ type: 'text' })
  status: string;

  @Column({ type: 'text', nullable: true })
  outcome: string | null;

  @Column({ type: 'text' })
  mode: CaseMode;

  @Column({ type: 'text' })
  source: CaseSource;

  @Column({ type: 'jsonb', select: false })
  attributes: unknown;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}

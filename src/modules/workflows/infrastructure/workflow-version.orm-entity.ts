import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintId } from '../../../shared/database/bigint-id.transformer.js';
import type { WorkflowDefinition } from '../domain/workflow-definition.js';

/** A published version: frozen, never updated. */
@Entity('workflow_versions')
export class WorkflowVersionOrmEntity {
  @PrimaryColumn({ name: 'workflow_id', type: 'bigint', transformer: bigintId })
  workflowId: number;

  @PrimaryColumn({ type: 'integer' })
  version: number;

  /** json, not jsonb: it keeps the definition's keys in the order saved. */
  @Column({ type: 'json' })
  definition: WorkflowDefinition;

  /** The name of whoever published it; null for versions published before it was recorded. */
  @Column({ name: 'published_by', type: 'text', nullable: true })
  publishedBy: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', insert: false, update: false })
  createdAt: Date;
}

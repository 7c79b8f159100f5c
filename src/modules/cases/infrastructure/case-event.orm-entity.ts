import { Column, Entity } from 'typeorm';
import { bigintId } from '../../../shared/database/bigint-id.transformer.js';

/** The `case_events` table: a case's timeline, append-only. */
@Entity('case_events')
export class CaseEventOrmEntity {
  @Column({ type: 'bigint', primary: true, generated: 'identity', generatedIdentity: 'ALWAYS', transformer: bigintId })
  id: number;

  @Column({ name: 'case_id', type: 'bigint', transformer: bigintId })
  caseId: number;

  @Column({ type: 'text' })
  type: string;

  /** `api_token:<id>`, `webhook`, `automation` or `engine`. */
  @Column({ type: 'text' })
  actor: string;

  @Column({ type: 'jsonb' })
  data: Record<string, unknown>;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}

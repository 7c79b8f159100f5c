import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { Transaction } from '../../../shared/database/transaction.js';
import { entityManager } from '../../../shared/database/typeorm-transaction-runner.js';
import { orderedTargets, type SlaPolicySettings } from '../domain/sla-policy.js';
import { SlaPolicyStore, type StoredSlaPolicy } from '../application/sla-stores.js';

type PolicyRow = {
  workflow_id: string;
  calendar_name: string;
  targets: SlaPolicySettings['targets'];
  pause_statuses: string[];
  warn_before: string | null;
  created_at: Date;
  updated_at: Date;
};

const COLUMNS = 'workflow_id, calendar_name, targets, pause_statuses, warn_before, created_at, updated_at';

@Injectable()
export class PostgresSlaPolicyStore extends SlaPolicyStore {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    super();
  }

  /** A replaced policy sweeps its workflow's cases again from the start: their timers follow the new targets. */
  async put(tx: Transaction, organizationId: number, workflowId: number, settings: SlaPolicySettings): Promise<StoredSlaPolicy & { before: SlaPolicySettings | null }> {
    const m = entityManager(tx);
    const [old] = (await m.query(`SELECT ${COLUMNS} FROM sla_policies WHERE organization_id = $1 AND workflow_id = $2 FOR UPDATE`, [organizationId, workflowId])) as PolicyRow[];
    const [row] = (await m.query(
      `INSERT INTO sla_policies (organization_id, workflow_id, calendar_name, targets, pause_statuses, warn_before) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (organization_id, workflow_id) DO UPDATE SET calendar_name = EXCLUDED.calendar_name, targets = EXCLUDED.targets,
         pause_statuses = EXCLUDED.pause_statuses, warn_before = EXCLUDED.warn_before, updated_at = now(), feed_cursor = NULL
       RETURNING ${COLUMNS}`,
      [organizationId, workflowId, settings.calendar, JSON.stringify(settings.targets), JSON.stringify(settings.pause_statuses), settings.warn_before],
    )) as PolicyRow[];
    return { ...toPolicy(row!), before: old ? toPolicy(old).settings : null };
  }

  async find(organizationId: number, workflowId: number): Promise<StoredSlaPolicy | undefined> {
    const [row] = (await this.dataSource.query(`SELECT ${COLUMNS} FROM sla_policies WHERE organization_id = $1 AND workflow_id = $2`, [organizationId, workflowId])) as PolicyRow[];
    return row && toPolicy(row);
  }

  /** The workflow's timers not fired yet go with it: no clock runs without a policy. */
  async delete(tx: Transaction, organizationId: number, workflowId: number): Promise<boolean> {
    const m = entityManager(tx);
    const [, affected] = (await m.query('DELETE FROM sla_policies WHERE organization_id = $1 AND workflow_id = $2', [organizationId, workflowId])) as [unknown, number];
    await m.query('DELETE FROM sla_timers WHERE organization_id = $1 AND workflow_id = $2 AND fired_at IS NULL', [organizationId, workflowId]);
    return affected > 0;
  }

  async workflowsUsing(tx: Transaction, organizationId: number, calendarName: string): Promise<number[]> {
    const rows = (await entityManager(tx).query(
      'SELECT workflow_id FROM sla_policies WHERE organization_id = $1 AND calendar_name = $2 ORDER BY workflow_id',
      [organizationId, calendarName],
    )) as { workflow_id: string }[];
    return rows.map((row) => Number(row.workflow_id));
  }
}

function toPolicy(row: PolicyRow): StoredSlaPolicy {
  return {
    workflowId: Number(row.workflow_id),
    settings: { calendar: row.calendar_name, targets: orderedTargets(row.targets), pause_statuses: row.pause_statuses, warn_before: row.warn_before },
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

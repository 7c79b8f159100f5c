import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { Transaction } from '../../../shared/database/transaction.js';
import { column, type RowOf } from '../../../shared/database/typed-statement.js';
import { firstRowOf, rowsOf, statement } from './persistence.js';
import { entityManager } from '../../../shared/database/typeorm-transaction-runner.js';
import { orderedTargets, type SlaPolicySettings } from '../domain/sla-policy.js';
import { SlaPolicyStore, type StoredSlaPolicy } from '../application/sla-stores.js';

const COLUMNS = 'workflow_id, calendar_name, targets, pause_statuses, warn_before, created_at, updated_at';
/** A policy's settings as its rows answer them (the SLA timers read them with the calendar). */
export const POLICY_SETTINGS_ROW = {
  calendar_name: column.text,
  targets: column.jsonb<SlaPolicySettings['targets']>(),
  pause_statuses: column.jsonb<string[]>(),
  warn_before: column.nullable(column.text),
  created_at: column.timestamptz,
  updated_at: column.timestamptz,
};
const POLICY_ROW = { workflow_id: column.int8, ...POLICY_SETTINGS_ROW };

const LOCK_POLICY = statement(`SELECT ${COLUMNS} FROM sla_policies WHERE organization_id = $1 AND workflow_id = $2 FOR UPDATE`, POLICY_ROW);
const UPSERT_POLICY = statement(
  `INSERT INTO sla_policies (organization_id, workflow_id, calendar_name, targets, pause_statuses, warn_before) VALUES ($1, $2, $3, $4, $5, $6)
   ON CONFLICT (organization_id, workflow_id) DO UPDATE SET calendar_name = EXCLUDED.calendar_name, targets = EXCLUDED.targets,
     pause_statuses = EXCLUDED.pause_statuses, warn_before = EXCLUDED.warn_before, updated_at = now(), feed_cursor = NULL
   RETURNING ${COLUMNS}`,
  POLICY_ROW,
);
const FIND_POLICY = statement(`SELECT ${COLUMNS} FROM sla_policies WHERE organization_id = $1 AND workflow_id = $2`, POLICY_ROW);
// Returns the deleted row's key: whether there was a policy is whether a row comes back.
const DELETE_POLICY = statement('DELETE FROM sla_policies WHERE organization_id = $1 AND workflow_id = $2 RETURNING workflow_id', { workflow_id: column.int8 });
const DELETE_UNFIRED_TIMERS = statement('DELETE FROM sla_timers WHERE organization_id = $1 AND workflow_id = $2 AND fired_at IS NULL');
const WORKFLOWS_USING_CALENDAR = statement('SELECT workflow_id FROM sla_policies WHERE organization_id = $1 AND calendar_name = $2 ORDER BY workflow_id', { workflow_id: column.int8 });

@Injectable()
export class PostgresSlaPolicyStore extends SlaPolicyStore {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    super();
  }

  /** A replaced policy sweeps its workflow's cases again from the start: their timers follow the new targets. */
  async put(tx: Transaction, organizationId: number, workflowId: number, settings: SlaPolicySettings): Promise<StoredSlaPolicy & { before: SlaPolicySettings | null }> {
    const m = entityManager(tx);
    const old = await firstRowOf(m, LOCK_POLICY, [organizationId, workflowId]);
    const row = await firstRowOf(m, UPSERT_POLICY, [organizationId, workflowId, settings.calendar, JSON.stringify(settings.targets), JSON.stringify(settings.pause_statuses), settings.warn_before]);
    return { ...toPolicy(row!), before: old ? toPolicy(old).settings : null };
  }

  async find(organizationId: number, workflowId: number): Promise<StoredSlaPolicy | undefined> {
    const row = await firstRowOf(this.dataSource, FIND_POLICY, [organizationId, workflowId]);
    return row && toPolicy(row);
  }

  /** The workflow's timers not fired yet go with it: no clock runs without a policy. */
  async delete(tx: Transaction, organizationId: number, workflowId: number): Promise<boolean> {
    const m = entityManager(tx);
    const deleted = await rowsOf(m, DELETE_POLICY, [organizationId, workflowId]);
    await rowsOf(m, DELETE_UNFIRED_TIMERS, [organizationId, workflowId]);
    return deleted.length > 0;
  }

  async workflowsUsing(tx: Transaction, organizationId: number, calendarName: string): Promise<number[]> {
    const rows = await rowsOf(entityManager(tx), WORKFLOWS_USING_CALENDAR, [organizationId, calendarName]);
    return rows.map((row) => Number(row.workflow_id));
  }
}

function toPolicy(row: RowOf<typeof POLICY_ROW>): StoredSlaPolicy {
  return {
    workflowId: Number(row.workflow_id),
    settings: { calendar: row.calendar_name, targets: orderedTargets(row.targets), pause_statuses: row.pause_statuses, warn_before: row.warn_before },
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

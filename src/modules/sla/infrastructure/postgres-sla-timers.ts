import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { Transaction } from '../../../shared/database/transaction.js';
import { column } from '../../../shared/database/typed-statement.js';
import { firstRowOf, rowsOf, statement } from './persistence.js';
import { entityManager } from '../../../shared/database/typeorm-transaction-runner.js';
import type { CalendarSettings } from '../domain/business-calendar.js';
import type { ClockName } from '../domain/sla-policy.js';
import type { TimerKind, TimerSpec } from '../domain/sla-timers.js';
import { type FiredTimer, type PolicyInForce, SlaSweepStore, SlaTimerStore } from '../application/sla-stores.js';
import { POLICY_SETTINGS_ROW } from './postgres-sla-policy-store.js';

const POLICIES = statement('SELECT organization_id, workflow_id FROM sla_policies ORDER BY organization_id, workflow_id', { organization_id: column.int8, workflow_id: column.int8 });
const WORKFLOWS_WITH_POLICIES = statement('SELECT workflow_id FROM sla_policies WHERE organization_id = $1 ORDER BY workflow_id', { workflow_id: column.int8 });
const POLICY_IN_FORCE = statement(
  `SELECT p.calendar_name, p.targets, p.pause_statuses, p.warn_before, p.created_at, p.updated_at, p.feed_cursor, c.time_zone, c.hours, c.holidays
   FROM sla_policies p JOIN business_calendars c ON c.organization_id = p.organization_id AND c.name = p.calendar_name
   WHERE p.organization_id = $1 AND p.workflow_id = $2`,
  {
    ...POLICY_SETTINGS_ROW,
    feed_cursor: column.nullable(column.text),
    time_zone: column.text,
    hours: column.jsonb<CalendarSettings['hours']>(),
    holidays: column.jsonb<string[]>(),
  },
);
const CLAIM_POLICY = statement(
  `SELECT true AS claimed FROM sla_policies WHERE organization_id = $1 AND workflow_id = $2 AND date_trunc('milliseconds', updated_at) = $3 AND feed_cursor IS NOT DISTINCT FROM $4
   FOR UPDATE SKIP LOCKED`,
  { claimed: column.bool },
);
const SAVE_FEED_CURSOR = statement('UPDATE sla_policies SET feed_cursor = $3 WHERE organization_id = $1 AND workflow_id = $2');
const DELETE_UNLISTED_TIMERS = statement(
  `DELETE FROM sla_timers WHERE organization_id = $1 AND case_id = $2 AND fired_at IS NULL
     AND (clock, kind, period_started_at) NOT IN (SELECT * FROM unnest($3::text[], $4::text[], $5::timestamptz[]))`,
);
const UPSERT_TIMERS = statement(
  `INSERT INTO sla_timers (organization_id, case_id, workflow_id, clock, kind, period_started_at, fire_at, due_at)
   SELECT $1, $2, $3, * FROM unnest($4::text[], $5::text[], $6::timestamptz[], $7::timestamptz[], $8::timestamptz[])
   ON CONFLICT (organization_id, case_id, clock, kind, period_started_at) DO UPDATE SET fire_at = EXCLUDED.fire_at, due_at = EXCLUDED.due_at WHERE sla_timers.fired_at IS NULL`,
);
// Written as `WITH ... SELECT`: TypeORM answers a bare `UPDATE ... RETURNING` as [rows, count].
const FIRE_DUE = statement(
  `WITH due AS (
     SELECT organization_id, case_id, clock, kind, period_started_at FROM sla_timers
     WHERE fired_at IS NULL AND fire_at <= $1 ORDER BY fire_at LIMIT $2 FOR UPDATE SKIP LOCKED),
   fired AS (
     UPDATE sla_timers t SET fired_at = clock_timestamp() FROM due
     WHERE (t.organization_id, t.case_id, t.clock, t.kind, t.period_started_at) = (due.organization_id, due.case_id, due.clock, due.kind, due.period_started_at)
     RETURNING t.organization_id, t.case_id, t.workflow_id, t.clock, t.kind, t.period_started_at, t.fire_at, t.due_at, t.fired_at)
   SELECT * FROM fired ORDER BY fire_at`,
  {
    organization_id: column.int8,
    case_id: column.int8,
    workflow_id: column.int8,
    clock: column.textOf<ClockName>(),
    kind: column.textOf<TimerKind>(),
    period_started_at: column.timestamptz,
    fire_at: column.timestamptz,
    due_at: column.nullable(column.timestamptz),
    fired_at: column.timestamptz,
  },
);

@Injectable()
export class PostgresSlaSweepStore extends SlaSweepStore {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    super();
  }

  async policies(): Promise<{ organizationId: number; workflowId: number }[]> {
    const rows = await rowsOf(this.dataSource, POLICIES);
    return rows.map((row) => ({ organizationId: Number(row.organization_id), workflowId: Number(row.workflow_id) }));
  }

  async workflowsWithPolicies(organizationId: number): Promise<number[]> {
    const rows = await rowsOf(this.dataSource, WORKFLOWS_WITH_POLICIES, [organizationId]);
    return rows.map((row) => Number(row.workflow_id));
  }

  async inForce(organizationId: number, workflowId: number): Promise<PolicyInForce | undefined> {
    const row = await firstRowOf(this.dataSource, POLICY_IN_FORCE, [organizationId, workflowId]);
    if (!row) return undefined;
    return {
      policy: { workflowId, settings: { calendar: row.calendar_name, targets: row.targets, pause_statuses: row.pause_statuses, warn_before: row.warn_before }, createdAt: row.created_at, updatedAt: row.updated_at },
      calendar: { time_zone: row.time_zone, hours: row.hours, holidays: row.holidays },
      feedCursor: row.feed_cursor,
    };
  }

  async claim(tx: Transaction, organizationId: number, read: PolicyInForce): Promise<boolean> {
    return (await firstRowOf(entityManager(tx), CLAIM_POLICY, [organizationId, read.policy.workflowId, read.policy.updatedAt, read.feedCursor])) !== undefined;
  }

  async saveFeedCursor(tx: Transaction, organizationId: number, workflowId: number, cursor: string): Promise<void> {
    await rowsOf(entityManager(tx), SAVE_FEED_CURSOR, [organizationId, workflowId, cursor]);
  }
}

@Injectable()
export class PostgresSlaTimers extends SlaTimerStore {
  async replace(tx: Transaction, organizationId: number, workflowId: number, caseId: number, timers: readonly TimerSpec[]): Promise<void> {
    const m = entityManager(tx);
    const columns = [timers.map((t) => t.clock), timers.map((t) => t.kind), timers.map((t) => t.periodStartedAt), timers.map((t) => t.fireAt), timers.map((t) => t.dueAt)];
    await rowsOf(m, DELETE_UNLISTED_TIMERS, [organizationId, caseId, columns[0], columns[1], columns[2]]);
    if (timers.length === 0) return;
    // A timer that already fired keeps its firing: each fires once per clock period.
    await rowsOf(m, UPSERT_TIMERS, [organizationId, caseId, workflowId, ...columns]);
  }

  async fireDue(tx: Transaction, now: Date, limit: number): Promise<FiredTimer[]> {
    const rows = await rowsOf(entityManager(tx), FIRE_DUE, [now, limit]);
    return rows.map((row) => ({
      organizationId: Number(row.organization_id),
      caseId: Number(row.case_id),
      workflowId: Number(row.workflow_id),
      clock: row.clock,
      kind: row.kind,
      periodStartedAt: row.period_started_at,
      fireAt: row.fire_at,
      dueAt: row.due_at,
      firedAt: row.fired_at,
    }));
  }
}

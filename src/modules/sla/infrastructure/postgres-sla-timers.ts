import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { Transaction } from '../../../shared/database/transaction.js';
import { entityManager } from '../../../shared/database/typeorm-transaction-runner.js';
import type { CalendarSettings } from '../domain/business-calendar.js';
import type { ClockName, SlaPolicySettings } from '../domain/sla-policy.js';
import type { TimerKind, TimerSpec } from '../domain/sla-timers.js';
import { type FiredTimer, type PolicyInForce, SlaSweepStore, SlaTimerStore } from '../application/sla-stores.js';

@Injectable()
export class PostgresSlaSweepStore extends SlaSweepStore {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    super();
  }

  async policies(): Promise<{ organizationId: number; workflowId: number }[]> {
    const rows = (await this.dataSource.query('SELECT organization_id, workflow_id FROM sla_policies ORDER BY organization_id, workflow_id')) as { organization_id: string; workflow_id: string }[];
    return rows.map((row) => ({ organizationId: Number(row.organization_id), workflowId: Number(row.workflow_id) }));
  }

  async workflowsWithPolicies(organizationId: number): Promise<number[]> {
    const rows = (await this.dataSource.query('SELECT workflow_id FROM sla_policies WHERE organization_id = $1 ORDER BY workflow_id', [organizationId])) as { workflow_id: string }[];
    return rows.map((row) => Number(row.workflow_id));
  }

  async inForce(organizationId: number, workflowId: number): Promise<PolicyInForce | undefined> {
    type Row = {
      calendar_name: string; targets: SlaPolicySettings['targets']; pause_statuses: string[]; warn_before: string | null; created_at: Date; updated_at: Date; feed_cursor: string | null;
      time_zone: string; hours: CalendarSettings['hours']; holidays: string[];
    };
    const [row] = (await this.dataSource.query(
      `SELECT p.calendar_name, p.targets, p.pause_statuses, p.warn_before, p.created_at, p.updated_at, p.feed_cursor, c.time_zone, c.hours, c.holidays
       FROM sla_policies p JOIN business_calendars c ON c.organization_id = p.organization_id AND c.name = p.calendar_name
       WHERE p.organization_id = $1 AND p.workflow_id = $2`,
      [organizationId, workflowId],
    )) as Row[];
    if (!row) return undefined;
    return {
      policy: { workflowId, settings: { calendar: row.calendar_name, targets: row.targets, pause_statuses: row.pause_statuses, warn_before: row.warn_before }, createdAt: row.created_at, updatedAt: row.updated_at },
      calendar: { time_zone: row.time_zone, hours: row.hours, holidays: row.holidays },
      feedCursor: row.feed_cursor,
    };
  }

  async claim(tx: Transaction, organizationId: number, read: PolicyInForce): Promise<boolean> {
    const rows = (await entityManager(tx).query(
      `SELECT 1 FROM sla_policies WHERE organization_id = $1 AND workflow_id = $2 AND date_trunc('milliseconds', updated_at) = $3 AND feed_cursor IS NOT DISTINCT FROM $4
       FOR UPDATE SKIP LOCKED`,
      [organizationId, read.policy.workflowId, read.policy.updatedAt, read.feedCursor],
    )) as unknown[];
    return rows.length > 0;
  }

  async saveFeedCursor(tx: Transaction, organizationId: number, workflowId: number, cursor: string): Promise<void> {
    await entityManager(tx).query('UPDATE sla_policies SET feed_cursor = $3 WHERE organization_id = $1 AND workflow_id = $2', [organizationId, workflowId, cursor]);
  }
}

@Injectable()
export class PostgresSlaTimers extends SlaTimerStore {
  async replace(tx: Transaction, organizationId: number, workflowId: number, caseId: number, timers: readonly TimerSpec[]): Promise<void> {
    const m = entityManager(tx);
    const columns = [timers.map((t) => t.clock), timers.map((t) => t.kind), timers.map((t) => t.periodStartedAt), timers.map((t) => t.fireAt), timers.map((t) => t.dueAt)];
    await m.query(
      `DELETE FROM sla_timers WHERE organization_id = $1 AND case_id = $2 AND fired_at IS NULL
         AND (clock, kind, period_started_at) NOT IN (SELECT * FROM unnest($3::text[], $4::text[], $5::timestamptz[]))`,
      [organizationId, caseId, columns[0], columns[1], columns[2]],
    );
    if (timers.length === 0) return;
    // A timer that already fired keeps its firing: each fires once per clock period.
    await m.query(
      `INSERT INTO sla_timers (organization_id, case_id, workflow_id, clock, kind, period_started_at, fire_at, due_at)
       SELECT $1, $2, $3, * FROM unnest($4::text[], $5::text[], $6::timestamptz[], $7::timestamptz[], $8::timestamptz[])
       ON CONFLICT (organization_id, case_id, clock, kind, period_started_at) DO UPDATE SET fire_at = EXCLUDED.fire_at, due_at = EXCLUDED.due_at WHERE sla_timers.fired_at IS NULL`,
      [organizationId, caseId, workflowId, ...columns],
    );
  }

  async fireDue(tx: Transaction, now: Date, limit: number): Promise<FiredTimer[]> {
    type Row = { organization_id: string; case_id: string; workflow_id: string; clock: ClockName; kind: TimerKind; period_started_at: Date; fire_at: Date; due_at: Date | null; fired_at: Date };
    // Written as `WITH ... SELECT`: TypeORM answers a bare `UPDATE ... RETURNING` as [rows, count].
    const rows = (await entityManager(tx).query(
      `WITH due AS (
         SELECT organization_id, case_id, clock, kind, period_started_at FROM sla_timers
         WHERE fired_at IS NULL AND fire_at <= $1 ORDER BY fire_at LIMIT $2 FOR UPDATE SKIP LOCKED),
       fired AS (
         UPDATE sla_timers t SET fired_at = clock_timestamp() FROM due
         WHERE (t.organization_id, t.case_id, t.clock, t.kind, t.period_started_at) = (due.organization_id, due.case_id, due.clock, due.kind, due.period_started_at)
         RETURNING t.organization_id, t.case_id, t.workflow_id, t.clock, t.kind, t.period_started_at, t.fire_at, t.due_at, t.fired_at)
       SELECT * FROM fired ORDER BY fire_at`,
      [now, limit],
    )) as Row[];
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

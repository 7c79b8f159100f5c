import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { Transaction } from '../../../shared/database/transaction.js';
import { column, type RowOf } from '../../../shared/database/typed-statement.js';
import { firstRowOf, rowsOf, statement } from './persistence.js';
import { entityManager } from '../../../shared/database/typeorm-transaction-runner.js';
import { type CalendarSettings, weekFromMonday } from '../domain/business-calendar.js';
import { CalendarStore, type StoredCalendar } from '../application/sla-stores.js';

const COLUMNS = 'name, time_zone, hours, holidays, created_at, updated_at';
const CALENDAR_ROW = {
  name: column.text,
  time_zone: column.text,
  hours: column.jsonb<CalendarSettings['hours']>(),
  holidays: column.jsonb<string[]>(),
  created_at: column.timestamptz,
  updated_at: column.timestamptz,
};

const LOCK_CALENDAR_ROW = statement(`SELECT ${COLUMNS} FROM business_calendars WHERE organization_id = $1 AND name = $2 FOR UPDATE`, CALENDAR_ROW);
const UPSERT_CALENDAR = statement(
  `INSERT INTO business_calendars (organization_id, name, time_zone, hours, holidays) VALUES ($1, $2, $3, $4, $5)
   ON CONFLICT (organization_id, name) DO UPDATE SET time_zone = EXCLUDED.time_zone, hours = EXCLUDED.hours, holidays = EXCLUDED.holidays, updated_at = now()
   RETURNING ${COLUMNS}`,
  CALENDAR_ROW,
);
const RESWEEP_POLICIES_COUNTING_IN = statement('UPDATE sla_policies SET feed_cursor = NULL WHERE organization_id = $1 AND calendar_name = $2');
const LIST_CALENDARS = statement(`SELECT ${COLUMNS} FROM business_calendars WHERE organization_id = $1 ORDER BY name`, CALENDAR_ROW);
const FIND_CALENDAR = statement(`SELECT ${COLUMNS} FROM business_calendars WHERE organization_id = $1 AND name = $2`, CALENDAR_ROW);
const lockCalendar = (mode: 'FOR UPDATE' | 'FOR KEY SHARE') =>
  statement(`SELECT true AS locked FROM business_calendars WHERE organization_id = $1 AND name = $2 ${mode}`, { locked: column.bool });
const LOCK_CALENDAR_EXCLUSIVE = lockCalendar('FOR UPDATE');
const LOCK_CALENDAR_SHARED = lockCalendar('FOR KEY SHARE');
const DELETE_CALENDAR = statement('DELETE FROM business_calendars WHERE organization_id = $1 AND name = $2');

@Injectable()
export class PostgresCalendarStore extends CalendarStore {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    super();
  }

  async put(tx: Transaction, organizationId: number, name: string, settings: CalendarSettings): Promise<StoredCalendar & { before: CalendarSettings | null }> {
    const m = entityManager(tx);
    const old = await firstRowOf(m, LOCK_CALENDAR_ROW, [organizationId, name]);
    const row = await firstRowOf(m, UPSERT_CALENDAR, [organizationId, name, settings.time_zone, JSON.stringify(settings.hours), JSON.stringify(settings.holidays)]);
    // The policies counting in it sweep their workflows' cases again: their due times move with the hours.
    if (old) await rowsOf(m, RESWEEP_POLICIES_COUNTING_IN, [organizationId, name]);
    return { ...toCalendar(row!), before: old ? toCalendar(old).settings : null };
  }

  async list(organizationId: number): Promise<StoredCalendar[]> {
    return (await rowsOf(this.dataSource, LIST_CALENDARS, [organizationId])).map(toCalendar);
  }

  async find(organizationId: number, name: string): Promise<StoredCalendar | undefined> {
    const row = await firstRowOf(this.dataSource, FIND_CALENDAR, [organizationId, name]);
    return row && toCalendar(row);
  }

  async lock(tx: Transaction, organizationId: number, name: string, exclusive: boolean): Promise<boolean> {
    return (await firstRowOf(entityManager(tx), exclusive ? LOCK_CALENDAR_EXCLUSIVE : LOCK_CALENDAR_SHARED, [organizationId, name])) !== undefined;
  }

  async delete(tx: Transaction, organizationId: number, name: string): Promise<void> {
    await rowsOf(entityManager(tx), DELETE_CALENDAR, [organizationId, name]);
  }
}

function toCalendar(row: RowOf<typeof CALENDAR_ROW>): StoredCalendar {
  return { name: row.name, settings: { time_zone: row.time_zone, hours: weekFromMonday(row.hours), holidays: row.holidays }, createdAt: row.created_at, updatedAt: row.updated_at };
}

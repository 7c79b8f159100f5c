import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { Transaction } from '../../../shared/database/transaction.js';
import { entityManager } from '../../../shared/database/typeorm-transaction-runner.js';
import { type CalendarSettings, weekFromMonday } from '../domain/business-calendar.js';
import { CalendarStore, type StoredCalendar } from '../application/sla-stores.js';

type CalendarRow = { name: string; time_zone: string; hours: CalendarSettings['hours']; holidays: string[]; created_at: Date; updated_at: Date };

const COLUMNS = 'name, time_zone, hours, holidays, created_at, updated_at';

@Injectable()
export class PostgresCalendarStore extends CalendarStore {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    super();
  }

  async put(tx: Transaction, organizationId: number, name: string, settings: CalendarSettings): Promise<StoredCalendar & { before: CalendarSettings | null }> {
    const m = entityManager(tx);
    const [old] = (await m.query(`SELECT ${COLUMNS} FROM business_calendars WHERE organization_id = $1 AND name = $2 FOR UPDATE`, [organizationId, name])) as CalendarRow[];
    const [row] = (await m.query(
      `INSERT INTO business_calendars (organization_id, name, time_zone, hours, holidays) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (organization_id, name) DO UPDATE SET time_zone = EXCLUDED.time_zone, hours = EXCLUDED.hours, holidays = EXCLUDED.holidays, updated_at = now()
       RETURNING ${COLUMNS}`,
      [organizationId, name, settings.time_zone, JSON.stringify(settings.hours), JSON.stringify(settings.holidays)],
    )) as CalendarRow[];
    // The policies counting in it sweep their workflows' cases again: their due times move with the hours.
    if (old) await m.query('UPDATE sla_policies SET feed_cursor = NULL WHERE organization_id = $1 AND calendar_name = $2', [organizationId, name]);
    return { ...toCalendar(row!), before: old ? toCalendar(old).settings : null };
  }

  async list(organizationId: number): Promise<StoredCalendar[]> {
    const rows = (await this.dataSource.query(`SELECT ${COLUMNS} FROM business_calendars WHERE organization_id = $1 ORDER BY name`, [organizationId])) as CalendarRow[];
    return rows.map(toCalendar);
  }

  async find(organizationId: number, name: string): Promise<StoredCalendar | undefined> {
    const [row] = (await this.dataSource.query(`SELECT ${COLUMNS} FROM business_calendars WHERE organization_id = $1 AND name = $2`, [organizationId, name])) as CalendarRow[];
    return row && toCalendar(row);
  }

  async lock(tx: Transaction, organizationId: number, name: string, exclusive: boolean): Promise<boolean> {
    const rows = (await entityManager(tx).query(
      `SELECT 1 FROM business_calendars WHERE organization_id = $1 AND name = $2 ${exclusive ? 'FOR UPDATE' : 'FOR KEY SHARE'}`,
      [organizationId, name],
    )) as unknown[];
    return rows.length > 0;
  }

  async delete(tx: Transaction, organizationId: number, name: string): Promise<void> {
    await entityManager(tx).query('DELETE FROM business_calendars WHERE organization_id = $1 AND name = $2', [organizationId, name]);
  }
}

function toCalendar(row: CalendarRow): StoredCalendar {
  return { name: row.name, settings: { time_zone: row.time_zone, hours: weekFromMonday(row.hours), holidays: row.holidays }, createdAt: row.created_at, updatedAt: row.updated_at };
}

import type pg from 'pg';
import { FOLD_LOCK } from '../../src/modules/reporting/infrastructure/report-rollups.sql.js';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

/**
 * Holds the reports' fold off (its advisory lock, on a connection of its own) until the
 * returned function is called: the changes stay in the log, where `travel` can move them.
 */
export async function holdFold(pool: pg.Pool): Promise<() => Promise<void>> {
  const client = await pool.connect();
  await client.query('SELECT pg_advisory_lock($1)', [FOLD_LOCK]);
  return async () => {
    await client.query('SELECT pg_advisory_unlock($1)', [FOLD_LOCK]);
    client.release();
  };
}

/**
 * Makes an organization's past older by `ms`, as if what it did so far had happened that much
 * earlier: its cases' creation and update times and its logged changes (the fold must be held
 * off, see holdFold). What is done next then happens `ms` after it: a case closed next has
 * been open `ms` longer.
 */
export async function travel(pool: pg.Pool, organizationId: number, ms: number): Promise<void> {
  const shift = `${ms} milliseconds`;
  await pool.query(
    `WITH changes AS (UPDATE report_changes SET at = at - $2::interval WHERE organization_id = $1)
     UPDATE cases SET created_at = created_at - $2::interval, updated_at = updated_at - $2::interval WHERE organization_id = $1`,
    [organizationId, shift],
  );
}

/** `at` as ISO 8601 in a fixed offset of whole hours (`+02:00`). */
export function inOffset(at: Date, offsetHours: number): string {
  const local = new Date(at.getTime() + offsetHours * HOUR_MS).toISOString().slice(0, 19);
  const sign = offsetHours < 0 ? '-' : '+';
  return `${local}${offsetHours === 0 ? 'Z' : `${sign}${String(Math.abs(offsetHours)).padStart(2, '0')}:00`}`;
}

import pg from 'pg';
import { db } from './test-app.js';

/** Runs `work` while another connection holds `tables` locked against every reader and writer, then lets go. */
export async function whileLocked<T>(tables: string[], work: () => Promise<T>): Promise<T> {
  const holder = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await holder.connect();
  try {
    await holder.query('BEGIN');
    await holder.query(`LOCK TABLE ${tables.join(', ')} IN ACCESS EXCLUSIVE MODE`);
    return await work();
  } finally {
    await holder.query('ROLLBACK').catch(() => undefined);
    await holder.end();
  }
}

/** The service's statements waiting for a lock in this run's database right now. */
export async function waitingBackends(): Promise<number> {
  const { rows } = await db().query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_stat_activity
     WHERE datname = current_database() AND application_name = 'case-intake' AND wait_event_type = 'Lock'`,
  );
  return rows[0]!.n;
}

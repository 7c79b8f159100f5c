import pg from 'pg';
import { waitForReplay } from './replicated-postgres.js';
import { db } from './test-app.js';

/**
 * With a read replica (DATABASE_READ_URL), until it has replayed what the primary has written so
 * far: a lock taken or let go on the primary (its WAL record, written without a flush of its own)
 * holds there too, for the reads served by the replica.
 */
async function replicaReplayed(on: pg.Client): Promise<void> {
  const { DATABASE_URL: primary, DATABASE_READ_URL: replica } = process.env;
  if (!primary || !replica) return;
  const { rows } = await on.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn');
  await waitForReplay(primary, replica, rows[0]!.lsn);
}

/** Runs `work` while another connection holds `tables` locked against every reader and writer (on the replica too), then lets go. */
export async function whileLocked<T>(tables: string[], work: () => Promise<T>): Promise<T> {
  const holder = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await holder.connect();
  try {
    await holder.query('BEGIN');
    await holder.query(`LOCK TABLE ${tables.join(', ')} IN ACCESS EXCLUSIVE MODE`);
    await replicaReplayed(holder);
    return await work();
  } finally {
    await holder.query('ROLLBACK').catch(() => undefined);
    await replicaReplayed(holder).catch(() => undefined);
    await holder.end();
  }
}

/** The service's statements waiting for a lock in this run's database right now, on the replica too. */
export async function waitingBackends(): Promise<number> {
  const waiting = `SELECT count(*)::int AS n FROM pg_stat_activity
     WHERE datname = current_database() AND application_name IN ('case-intake', 'case-intake-replica-reads') AND wait_event_type = 'Lock'`;
  const onPrimary = (await db().query<{ n: number }>(waiting)).rows[0]!.n;
  const replicaUrl = process.env.DATABASE_READ_URL;
  if (!replicaUrl) return onPrimary;
  const replica = new pg.Client({ connectionString: replicaUrl });
  await replica.connect();
  try {
    return onPrimary + (await replica.query<{ n: number }>(waiting)).rows[0]!.n;
  } finally {
    await replica.end();
  }
}

/**
 * The change feed gives a change only once every transaction older than it has ended (its
 * `change_xid` below the snapshot's xmin), and other tests' transactions on the same server may
 * be among those: a test that reads the feed right after its writes waits for them with these.
 */
import { db } from './test-app.js';

/** The next transaction id Postgres will hand out: every transaction that wrote so far is below it. */
export const nextXid = async (): Promise<bigint> => BigInt((await db().query('SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS x')).rows[0].x);

/** The oldest transaction still running: the feed gives the changes below it. */
export const oldestRunningXid = async (): Promise<bigint> => BigInt((await db().query('SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS x')).rows[0].x);

import { setTimeout as delay } from 'node:timers/promises';
import { Redis } from 'ioredis';
import pg from 'pg';
import { runMigrations } from '../../src/shared/database/migrate.js';
import { waitForReplay } from './replicated-postgres.js';

/** The database of `databaseUrl` on the server of `serverUrl`. */
export function sameDatabaseOn(serverUrl: string, databaseUrl: string): string {
  const url = new URL(serverUrl);
  url.pathname = new URL(databaseUrl).pathname;
  return url.toString();
}

/**
 * DATABASE_READ_URL for a service started with `env` over this test process's environment: the
 * one `env` gives; or, when this run reads from a replica and `env` points DATABASE_URL at another
 * database of the primary, that database on the replica; none when there is no replica or
 * DATABASE_URL is on another server (which has no replica).
 */
export function readUrlFor(env: Record<string, string | undefined>): string | undefined {
  if (env.DATABASE_READ_URL !== undefined) return env.DATABASE_READ_URL;
  const { DATABASE_URL: primary, DATABASE_READ_URL: replica } = process.env;
  if (!primary || !replica) return undefined;
  if (env.DATABASE_URL === undefined) return replica;
  return new URL(env.DATABASE_URL).host === new URL(primary).host ? sameDatabaseOn(replica, env.DATABASE_URL) : undefined;
}

/**
 * Creates a fresh database on the server of `serverUrl` and migrates it (up to the migration
 * `before`, for a test of that migration on a populated database); returns its URL. With a
 * replica (`replicaUrl`, this run's when the server is its primary), once the replica has it too.
 */
export async function createTestDatabase(serverUrl: string, name: string, replicaUrl = readUrlFor({ DATABASE_URL: serverUrl }), before?: string): Promise<string> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  await runMigrations(url.toString(), { before });
  if (replicaUrl) await waitForReplay(serverUrl, replicaUrl);
  return url.toString();
}

const CLOSING_MS = 2_000;

/**
 * Drops the database once the test's own connections are gone, forcing the rest out after
 * CLOSING_MS: pg's Pool.end() resolves before its clients' sockets close, and a backend
 * terminated under such a client makes it emit an error nothing listens to any more.
 */
export async function dropTestDatabase(serverUrl: string, databaseUrl: string): Promise<void> {
  const name = new URL(databaseUrl).pathname.slice(1);
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    const closing = Date.now() + CLOSING_MS;
    while (Date.now() < closing && (await admin.query(`SELECT 1 FROM pg_stat_activity WHERE datname = $1 LIMIT 1`, [name])).rowCount) await delay(20);
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

export async function flushRedisPrefix(redisUrl: string, prefix: string): Promise<void> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/**
 * Deletes every key under `prefix:` in one step, as a Redis restart without persistence would
 * lose them: SCAN + DEL inside one script, which Redis runs atomically (never FLUSHALL: other
 * runs share the Redis). Deleting batch by batch instead can split what the service wrote
 * together, e.g. keep a job's hash while its delayed set goes, which no real loss of Redis does.
 * Returns how many keys went.
 */
export async function emptyRedisPrefix(redisUrl: string, prefix: string): Promise<number> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  try {
    const deleted = await redis.eval(
      `local cursor, deleted = '0', 0
       repeat
         local found = redis.call('SCAN', cursor, 'MATCH', ARGV[1], 'COUNT', 1000)
         cursor = found[1]
         for _, key in ipairs(found[2]) do deleted = deleted + redis.call('DEL', key) end
       until cursor == '0'
       return deleted`,
      0,
      `${prefix}:*`,
    );
    return Number(deleted);
  } finally {
    redis.disconnect();
  }
}

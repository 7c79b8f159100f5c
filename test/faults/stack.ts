/**
 * The fault runner's own infrastructure: an embedded Postgres and a redis-server in a temp
 * dir, each stoppable and startable again on the same data dir and port, a migrated
 * database, the service environment, and every service process spawned on it (so all of
 * them are stopped at the end, whatever happened).
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { freePort, startEmbeddedPostgres, startLocalRedis, type RunningService } from '../../scripts/local-infra.js';
import { runMigrations } from '../../src/shared/database/migrate.js';
import { eventually } from '../support/automation-helpers.js';
import { type ReplicatedPostgres, startReplicatedPostgres } from '../support/replicated-postgres.js';
import { spawnService, type ServiceProcess } from '../support/service-process.js';
import { pidOf, terminate } from './processes.js';

/** SHUTDOWN_GRACE_MS given to every service. */
export const SHUTDOWN_GRACE_MS = 10_000;
/**
 * How long a service process may take to start. Three seconds on an idle machine; a process
 * started again mid-scenario shares two cores with the load, the receiver, Postgres and the other
 * processes (one respawned API took over 20 s once in CI, its reason unseen then).
 */
const START_MS = 60_000;
/** What main.ts logs (at info) once the app is up. */
const STARTED = 'case intake service started';

interface Restartable {
  port: number;
  dir: string;
  running?: RunningService;
}

export class Stack {
  readonly env: Record<string, string>;
  /** A pool on the service's database for the invariant checks; survives Postgres restarts. */
  readonly pool: pg.Pool;
  private readonly services = new Set<ServiceProcess>();

  private constructor(
    private readonly scratch: string,
    private readonly postgres: Restartable,
    private readonly redis: Restartable,
    databaseUrl: string,
    redisUrl: string,
    /** With Stack.startReplicated: the streaming replica every service reads from (DATABASE_READ_URL). */
    readonly replica?: ReplicatedPostgres,
  ) {
    this.env = {
      DATABASE_URL: databaseUrl,
      // The replica scenario's reader reads all the time: list reads' share of database time must
      // not turn it away; and an organization's mark of its own changes lasts 3 s, not 6.
      ...(replica && { DATABASE_READ_URL: replica.replicaUrl, DATABASE_READ_MAX_LAG_MS: '2000', LIST_READ_DATABASE_MS_PER_SECOND: '100000', LIST_READ_DATABASE_BURST_MS: '600000' }),
      REDIS_URL: redisUrl,
      REDIS_PREFIX: `faults-${randomBytes(4).toString('hex')}`,
      TOKEN_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      OPERATOR_TOKEN: `operator-${randomBytes(16).toString('hex')}`,
      OUTBOUND_ALLOW_PRIVATE: 'true',
      RATE_LIMIT_PER_ADDRESS: '0',
      RATE_LIMIT_PER_CREDENTIAL: '0',
      DATABASE_CONNECT_TIMEOUT_MS: '1000',
      DELIVERY_RETRY_BASE_MS: '500',
      SHUTDOWN_GRACE_MS: String(SHUTDOWN_GRACE_MS),
      LOG_LEVEL: 'warn',
    };
    this.pool = new pg.Pool({ connectionString: databaseUrl, max: 4, connectionTimeoutMillis: 2000 });
    // Idle clients die with every Postgres restart; the pool drops them and connects anew.
    this.pool.on('error', () => undefined);
  }

  static start(): Promise<Stack> {
    return Stack.startOn(async (postgres) => {
      postgres.running = await startEmbeddedPostgres(postgres.dir, postgres.port);
      return undefined;
    });
  }

  /**
   * As `start`, on a primary and a streaming replica of it (test/support/replicated-postgres.ts)
   * instead of the embedded Postgres: every service reads from the replica. Postgres is not
   * restartable here; the replica is (`replica.killReplica()`, `replica.startReplica()`).
   */
  static startReplicated(): Promise<Stack> {
    return Stack.startOn(async (postgres) => {
      const pair = await startReplicatedPostgres(postgres.dir);
      postgres.running = { url: pair.primaryUrl, stop: () => pair.stop() };
      return pair;
    });
  }

  private static async startOn(startPostgres: (postgres: Restartable) => Promise<ReplicatedPostgres | undefined>): Promise<Stack> {
    const scratch = await mkdtemp(join(tmpdir(), 'cis-faults-'));
    // As root, Postgres runs as the user `postgres`, which must traverse this dir.
    await chmod(scratch, 0o755);
    const postgres: Restartable = { port: await freePort(), dir: join(scratch, 'postgres') };
    const redis: Restartable = { port: await freePort(), dir: join(scratch, 'redis') };
    let replica: ReplicatedPostgres | undefined;
    try {
      replica = await startPostgres(postgres);
      redis.running = await startLocalRedis(redis.dir, redis.port, false);
      await runMigrations(postgres.running!.url);
      await replica?.waitForReplay();
    } catch (err) {
      await redis.running?.stop().catch(() => undefined);
      await postgres.running?.stop().catch(() => undefined);
      await rm(scratch, { recursive: true, force: true });
      throw err;
    }
    const stack = new Stack(scratch, postgres, redis, postgres.running!.url, redis.running.url, replica);
    process.env.OPERATOR_TOKEN = stack.env.OPERATOR_TOKEN; // read by test/support/scenario.ts
    return stack;
  }

  async stopPostgres(): Promise<void> {
    await this.postgres.running?.stop();
    this.postgres.running = undefined;
  }

  async startPostgres(): Promise<void> {
    this.postgres.running ??= await startEmbeddedPostgres(this.postgres.dir, this.postgres.port);
  }

  async stopRedis(): Promise<void> {
    await this.redis.running?.stop();
    this.redis.running = undefined;
  }

  async startRedis(): Promise<void> {
    this.redis.running ??= await startLocalRedis(this.redis.dir, this.redis.port, false);
  }

  /** Where a Bull job is (which of the queue's lists or sets) and its state fields, for diagnosing stuck work. */
  async bullJob(queue: string, jobId: string): Promise<string> {
    const redis = new Redis(this.env.REDIS_URL!, { maxRetriesPerRequest: 1, lazyConnect: true });
    try {
      await redis.connect();
      const prefix = `${this.env.REDIS_PREFIX}:bull:${queue}`;
      const job = await redis.hgetall(`${prefix}:${jobId}`);
      if (!Object.keys(job).length) return 'not in Redis';
      const where: string[] = [];
      for (const list of ['wait', 'active', 'paused']) if ((await redis.lpos(`${prefix}:${list}`, jobId)) !== null) where.push(list);
      for (const set of ['delayed', 'failed', 'completed']) if ((await redis.zscore(`${prefix}:${set}`, jobId)) !== null) where.push(set);
      if (await redis.exists(`${prefix}:${jobId}:lock`)) where.push('locked');
      const fields = ['attemptsMade', 'processedOn', 'finishedOn', 'failedReason'].filter((f) => job[f] !== undefined).map((f) => `${f}=${job[f]}`);
      const frame = firstServiceFrame(job.stacktrace);
      if (frame) fields.push(`failed ${frame}`);
      return `${where.join('+') || 'in no list'} (${fields.join(', ')})`;
    } catch (err) {
      return `unreadable: ${String(err)}`;
    } finally {
      redis.disconnect();
    }
  }

  /**
   * An API process is returned once it answers /healthz (spawnService waits for that); a
   * worker once it logged that it started (its relays and queue consumers run from then on).
   * Both log at info, so a start that never ends shows the last step it reached.
   */
  async spawn(role: 'api' | 'worker'): Promise<ServiceProcess> {
    const started = performance.now();
    const service = await spawnService(role, { ...this.env, LOG_LEVEL: 'info' }, { startMs: START_MS, diagnose: () => this.databaseActivity() });
    this.services.add(service);
    if (role === 'worker') {
      await eventually('the worker to start', async () => (service.describe().includes(STARTED) ? true : undefined), {
        timeoutMs: START_MS,
        explain: async () => `${service.describe()}\n${await this.databaseActivity()}`,
      });
    }
    console.log(`  ${role} process ${service.pid} started in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return service;
  }

  /** The database's sessions that are not idle, with what they wait for: where a start that hangs may be stuck. */
  async databaseActivity(): Promise<string> {
    try {
      const { rows } = await this.pool.query<{ line: string }>(
        `SELECT format('pid %s %s %s/%s for %s s: %s', pid, state, wait_event_type, wait_event,
                       round(extract(epoch FROM now() - query_start)::numeric, 1), left(regexp_replace(query, '[[:space:]]+', ' ', 'g'), 160)) AS line
         FROM pg_stat_activity WHERE datname = current_database() AND state <> 'idle' AND pid <> pg_backend_pid()`,
      );
      return `database sessions not idle:\n${rows.map((r) => `  ${r.line}`).join('\n') || '  (none)'}`;
    } catch (err) {
      return `database sessions unreadable: ${String(err)}`;
    }
  }

  /** SIGTERM to every service still running (SIGKILL when one takes longer than its grace). */
  async stopServices(): Promise<void> {
    await Promise.all([...this.services].map((s) => terminate(s, 'SIGTERM', SHUTDOWN_GRACE_MS + 2000).catch(() => undefined)));
    this.services.clear();
  }

  /** Each service's status and last lines of output. */
  describeServices(): string[] {
    return [...this.services].map((s) => s.describe());
  }

  /** Pids of services not stopped yet, for a last-resort kill when the runner itself dies. */
  livePids(): number[] {
    return [...this.services].map(pidOf);
  }

  async close(): Promise<void> {
    await this.stopServices();
    await this.pool.end().catch(() => undefined);
    await this.stopRedis().catch(() => undefined);
    await this.stopPostgres().catch(() => undefined);
    await rm(this.scratch, { recursive: true, force: true });
  }
}

/** The first stack frame inside the service's own modules, from a Bull job's `stacktrace` (a JSON array of stacks). */
function firstServiceFrame(stacktrace: string | undefined): string | undefined {
  try {
    const stacks = JSON.parse(stacktrace ?? '[]') as string[];
    return stacks[0]?.split('\n').find((line) => line.includes('/src/modules/'))?.trim();
  } catch {
    return undefined;
  }
}

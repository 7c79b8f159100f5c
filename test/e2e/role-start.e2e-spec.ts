import assert from 'node:assert/strict';
import { chmod, cp, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { freePort, type RunningService, startEmbeddedPostgres, startLocalRedis } from '../../scripts/local-infra.js';
import { runMigrations } from '../../src/shared/database/migrate.js';
import { type ServiceProcess, spawnService } from '../support/service-process.js';

const PROJECT = fileURLToPath(new URL('../../..', import.meta.url));
const BUILD_SRC = fileURLToPath(new URL('../../src', import.meta.url));
/** What main.ts logs once the app listens: deployments and the fault suite wait for this line. */
const STARTED = 'case intake service started';
/** Three boots at once on a busy 2-core machine outlast spawnService's usual wait; only the bound for a failure. */
const START_DEADLINE_MS = 60_000;

/**
 * Every role started as production starts it, from a build without the dashboard (`tsc` alone,
 * as `test:faults` once ran it), on a Postgres and a redis-server started fresh for this file
 * (the fault suite's stack). A worker so started once looked hung at start: it ran, but its
 * last boot lines, its start line among them, stayed in the logger's buffer for good.
 */
describe('each role started without the built dashboard on a fresh Postgres and Redis', () => {
  let scratch: string | undefined;
  let postgres: RunningService | undefined;
  let redis: RunningService | undefined;
  const services: ServiceProcess[] = [];
  let main: string;
  let env: Record<string, string>;

  before(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'cis-role-start-'));
    // As root, embedded Postgres runs as the user `postgres`, which must traverse this dir.
    await chmod(scratch, 0o755);
    // The compiled service beside the project's node_modules, minus build/src/dashboard: the
    // service finds its dashboard next to its own modules, so a copy without it serves none.
    const checkout = join(scratch, 'checkout');
    await cp(BUILD_SRC, join(checkout, 'build', 'src'), { recursive: true, filter: (from) => from !== join(BUILD_SRC, 'dashboard') && !from.endsWith('.map') });
    await writeFile(join(checkout, 'package.json'), '{"type": "module"}');
    await symlink(join(PROJECT, 'node_modules'), join(checkout, 'node_modules'));
    main = join(checkout, 'build', 'src', 'main.js');
    postgres = await startEmbeddedPostgres(join(scratch, 'postgres'), await freePort());
    redis = await startLocalRedis(join(scratch, 'redis'), await freePort(), false);
    await runMigrations(postgres.url);
    env = { DATABASE_URL: postgres.url, REDIS_URL: redis.url, LOG_LEVEL: 'info' };
  });
  after(async () => {
    await Promise.all(services.map((service) => service.kill()));
    await redis?.stop();
    await postgres?.stop();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('starts an API, a worker and an all-in-one process side by side; each logs that it started, then answers /healthz', async () => {
    // Side by side, as the fault suite starts its processes: each boot's event loop lags behind
    // its timers, which is when the start line used to be stranded. Nothing is asked of a process
    // before its line is read: the log line of a request would bring the stranded lines out.
    await Promise.all((['api', 'worker', 'all'] as const).map(async (role) => {
      services.push(await spawnService(role, env, { main, startMs: START_DEADLINE_MS, untilLogged: STARTED }));
    }));
    for (const service of services) {
      const line = service.describe().split('\n').find((l) => l.includes(STARTED))!;
      assert.equal(JSON.parse(line).role, service.role);
      assert.equal((await service.request('GET', '/healthz')).status, 200);
    }
    // The premise: no dashboard here.
    assert.equal((await services[0]!.request('GET', '/dashboard/')).status, 404);
  });
});

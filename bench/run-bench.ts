/**
 * `npm run bench`: the service (`node dist/main.js`, ROLE=api) and the baseline program
 * (bench/baseline/server.ts, on the service's schema and on a lean one) side by side on one fresh
 * database, loaded in turn by autocannon in a separate process; the database's own limit for the
 * intake statement (pgbench); big bodies; the verified webhook next to the plain one; then the automation scenario (a worker process added), the capacity
 * figures, the backlog drain, the growth budget, the cost-growth step and the list and change-feed pages (each at 10k and 1M cases). Prints a summary and writes docs/benchmarks.md, keeping its hand-written head (report.ts). Child processes are
 * stopped and the database dropped at the end, also when something fails.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { freePort } from '../scripts/local-infra.js';
import { runAutomation } from './automation.js';
import { runBigBodies } from './big-bodies.js';
import { runBudget } from './budget.js';
import { runCapacity } from './capacity.js';
import { type BenchContext, type BenchPart, readConfig } from './context.js';
import { runDrain } from './drain.js';
import { runGrowth } from './growth.js';
import { runHttpScenarios } from './http-scenarios.js';
import { runSearch } from './search.js';
import { runSlaSweep } from './sla-sweep.js';
import { runNoisyNeighbour } from './noisy-neighbour.js';
import { runPgbenchReference } from './pgbench-reference.js';
import { runRegression } from './regression.js';
import { runSync } from './sync.js';
import { runVerifiedWebhook, verifiedRatio } from './verified-webhook.js';
import { runReports } from './reports.js';
import { type NodeProcess, nodeArgs, procStatusKb, startNode, waitUntilReady } from './procs.js';
import { consoleSummary, keepingHead, renderMarkdown } from './report.js';
import type { BenchResults, MachineInfo } from './results.js';
import { createBenchDatabase, createFixtures, dropBenchDatabase, flushRedisPrefix, redisInfo, runId, startInfra } from './setup.js';

const benchDir = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(benchDir, '..', '..');
const log = (line: string) => console.log(line);

/** The commit measured, and whether src/ had uncommitted changes when the run started. */
function codeVersion(): string {
  try {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dirty = git('status', '--porcelain', '--', 'src') !== '';
    return `${git('rev-parse', '--short', 'HEAD')}${dirty ? ' with uncommitted changes in src/' : ''}`;
  } catch {
    return 'unknown (not a git checkout)';
  }
}

async function machineInfo(db: pg.Pool, redisVersion: string): Promise<MachineInfo> {
  const cpuinfo = readFileSync('/proc/cpuinfo', 'utf8');
  const setting = async (name: string) => (await db.query<Record<string, string>>(`SHOW ${name}`)).rows[0]![name]!;
  return {
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    cpuModel: /^model name\s*:\s*(.*)$/m.exec(cpuinfo)?.[1]?.trim() ?? os.cpus()[0]?.model ?? 'unknown',
    cores: os.cpus().length,
    memoryGb: os.totalmem() / 1024 ** 3,
    kernel: `${os.type()} ${os.release()}`,
    node: process.version,
    postgres: await setting('server_version'),
    postgresSettings: {
      shared_buffers: await setting('shared_buffers'),
      synchronous_commit: await setting('synchronous_commit'),
      max_connections: await setting('max_connections'),
    },
    redis: redisVersion,
    loadAverageAtStart: os.loadavg(),
    code: codeVersion(),
  };
}

async function startTarget(name: string, args: string[], env: Record<string, string>, port: number, readyPath: string): Promise<NodeProcess> {
  const proc = startNode(name, args, { ...env, PORT: String(port) });
  await waitUntilReady(proc, `http://127.0.0.1:${port}${readyPath}`);
  return proc;
}

async function main(): Promise<number> {
  const startedAt = Date.now();
  const config = readConfig(repoRoot, benchDir);
  const failures: string[] = [];
  const children: NodeProcess[] = [];
  const infra = await startInfra();
  const id = runId();
  const dbName = `cis_bench_${id}`;
  const redisPrefix = `cis-bench-${id}`;
  let db: pg.Pool | undefined;
  let cleaning: Promise<void> | undefined;
  const cleanUp = () =>
    (cleaning ??= (async () => {
      for (const child of children.reverse()) await child.stop().catch(() => undefined);
      await db?.end().catch(() => undefined);
      await dropBenchDatabase(infra.serverUrl, dbName).catch((err: unknown) => console.error(`could not drop ${dbName}: ${String(err)}`));
      await flushRedisPrefix(infra.redisUrl, redisPrefix).catch(() => undefined);
      await infra.stop();
    })());
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      console.error(`bench: ${signal}, cleaning up`);
      void cleanUp().finally(() => process.exit(130));
    });
  }
  try {
    log(`bench: database ${dbName}, redis prefix ${redisPrefix}`);
    const databaseUrl = await createBenchDatabase(infra.serverUrl, dbName);
    db = new pg.Pool({ connectionString: databaseUrl, max: 3, application_name: 'bench-control' });
    // pool.end() resolves before its sockets have closed; the forced DROP DATABASE right after may
    // terminate one still closing, and an unheard 'error' would crash the run at its very end.
    db.on('error', () => undefined);
    const redis = await redisInfo(infra.redisUrl);
    const machine = await machineInfo(db, redis.version);
    log(`bench: ${machine.cpuModel}, ${machine.cores} cores, Node ${machine.node}, Postgres ${machine.postgres}, Redis ${machine.redis}, load ${machine.loadAverageAtStart.map((v) => v.toFixed(2)).join(' ')}`);

    const operatorToken = `operator-${randomBytes(16).toString('hex')}`;
    const servicePort = await freePort();
    const serviceEnv = {
      ...config.serviceProcessEnv,
      DATABASE_URL: databaseUrl,
      REDIS_URL: infra.redisUrl,
      REDIS_PREFIX: redisPrefix,
      TOKEN_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      OPERATOR_TOKEN: operatorToken,
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PUBLIC_BASE_URL: `http://127.0.0.1:${servicePort}`,
      // A port of its own: the default 2525 may be taken on a shared machine (the noisy part sends mail to it).
      SMTP_PORT: String(await freePort()),
      // One client from one address sends everything: limits high enough never to trip, so the
      // limiter still does its per-request work (its cost is part of what is measured).
      RATE_LIMIT_PER_ADDRESS: '1000000000',
      RATE_LIMIT_PER_CREDENTIAL: '1000000000',
    };
    const service = await startTarget('service', nodeArgs('service', config.serviceEntry, config.serviceNodeFlags), { ...serviceEnv, ROLE: 'api' }, servicePort, '/readyz');
    children.push(service);
    const serviceUrl = `http://127.0.0.1:${servicePort}`;
    const fixtures = await createFixtures(serviceUrl, operatorToken);
    const baselineEnv = { DATABASE_URL: databaseUrl, REDIS_URL: infra.redisUrl, REDIS_PREFIX: redisPrefix };
    const baselinePort = await freePort();
    const baseline = await startTarget('baseline', nodeArgs('baseline', config.baselineEntry), baselineEnv, baselinePort, '/healthz');
    children.push(baseline);
    const leanPort = await freePort();
    const lean = await startTarget('lean', nodeArgs('lean', config.baselineEntry), { ...baselineEnv, BASELINE_SCHEMA: 'lean' }, leanPort, '/healthz');
    children.push(lean);
    log(`bench: service pid ${service.pid} on ${servicePort}, baseline pid ${baseline.pid} on ${baselinePort}, lean baseline pid ${lean.pid} on ${leanPort}`);

    const ctx: BenchContext = {
      config,
      db,
      dbName,
      redisUrl: infra.redisUrl,
      redisPrefix,
      redisPid: redis.pid,
      fixtures,
      serviceEnv: { ...serviceEnv, PORT: String(servicePort) },
      targets: {
        service: { name: 'service', url: serviceUrl, process: service, applicationName: 'case-intake' },
        baseline: { name: 'baseline', url: `http://127.0.0.1:${baselinePort}`, process: baseline, applicationName: 'bench-baseline' },
        lean: { name: 'lean', url: `http://127.0.0.1:${leanPort}`, process: lean, applicationName: 'bench-lean' },
      },
    };

    if (config.scenarios.has('http')) log('bench: HTTP scenarios');
    const scenarios = config.scenarios.has('http') ? await runHttpScenarios(ctx, log) : [];
    for (const s of scenarios) for (const [name, message] of Object.entries(s.failures)) failures.push(`${s.key} at ${s.connections} connections, ${name}: ${message}`);
    const peakRssMb = {
      service: (procStatusKb(service.pid, 'VmHWM') ?? NaN) / 1024,
      baseline: (procStatusKb(baseline.pid, 'VmHWM') ?? NaN) / 1024,
      lean: (procStatusKb(lean.pid, 'VmHWM') ?? NaN) / 1024,
    };
    log(`bench: peak RSS service ${peakRssMb.service.toFixed(0)} MB, baseline ${peakRssMb.baseline.toFixed(0)} MB, lean baseline ${peakRssMb.lean.toFixed(0)} MB`);

    /** Runs a part unless BENCH_SCENARIOS leaves it out; a part that throws is recorded as failed and the run goes on. */
    const part = async <T>(key: Exclude<BenchPart, 'http'>, title: string, run: () => Promise<T>): Promise<{ result: T | null; failure: string | null }> => {
      if (!config.scenarios.has(key)) return { result: null, failure: 'skipped (BENCH_SCENARIOS)' };
      log(`bench: ${title}`);
      try {
        return { result: await run(), failure: null };
      } catch (err) {
        const failure = err instanceof Error ? err.message : String(err);
        failures.push(`${key}: ${failure}`);
        log(`  FAILED ${failure}`);
        return { result: null, failure };
      }
    };

    const { result: pgbench, failure: pgbenchFailure } = await part('pgbench', 'the database limit (pgbench, the intake statement)', () => runPgbenchReference(ctx, log));
    if (pgbench?.kind === 'skipped') log(`  skipped: ${pgbench.reason}`);
    const { result: bigBodies, failure: bigBodiesFailure } = await part('bigbody', 'big bodies', () => runBigBodies(ctx, log));
    const { result: verifiedWebhook, failure: verifiedWebhookFailure } = await part('verified', 'verified webhook next to the plain one', () => runVerifiedWebhook(ctx, log));
    for (const row of verifiedWebhook?.rows ?? []) log(`  verified webhook at ${row.connections} connections: ${(verifiedRatio(row) * 100).toFixed(1)}% of the plain webhook's req/s`);
    const { result: automation, failure: automationFailure } = await part('automation', 'automation scenario', () => runAutomation(ctx, log));
    if (automation) {
      log(
        `  ${automation.sustainedChainsPerSec.toFixed(0)} chains/s (${automation.sustainedRunsPerSec.toFixed(0)} runs/s) while intake ran; ` +
          `lag p50 ${automation.lagMs.p50.toFixed(0)} ms, p99 ${automation.lagMs.p99.toFixed(0)} ms; not succeeded ${automation.runsNotSucceeded}`,
      );
    }
    const { result: capacity, failure: capacityFailure } = await part('capacity', 'capacity figures', async () => {
      if (!automation) throw new Error('needs the automation part (BENCH_SCENARIOS)');
      return runCapacity(ctx, automation);
    });
    if (capacity) log(`  ${capacity.bytesPerCase.toFixed(0)} bytes per automated case; worker ${capacity.cores.workerPer1000Chains.toFixed(2)} cores per 1,000 chains/s`);
    const { result: drain, failure: drainFailure } = await part('drain', 'backlog drain', () => runDrain(ctx, log));
    if (drain) log(`  drain ${drain.drain.runsPerSec.toFixed(0)} runs/s vs steady ${drain.steady.runsPerSec.toFixed(0)} runs/s; intake p99 ${drain.drain.intake.latencyMs.p99.toFixed(1)} vs ${drain.steady.intake.latencyMs.p99.toFixed(1)} ms`);
    const { result: budget, failure: budgetFailure } = await part('budget', 'growth budget', () => runBudget(ctx, log));
    if (budget) log(`  intake p99 ${budget.withPurges.latencyMs.p99.toFixed(1)} ms with purges vs ${budget.withoutPurges.latencyMs.p99.toFixed(1)} ms without; rows purged ${budget.purgedRows ?? 'none counted'}`);
    const { result: growthSteps, failure: growthFailure } = await part('growth', 'cost growth', () => runGrowth(ctx, log));
    const growth = growthSteps ?? [];
    const { result: reports, failure: reportsFailure } = await part('reports', 'reports', () => runReports(ctx, log));
    failures.push(...growth.flatMap((s) => s.failures.map((f) => `growth: ${f}`)));
    const { result: syncSteps, failure: syncFailure } = await part('sync', 'list and change feed', () => runSync(ctx, log));
    const sync = syncSteps ?? [];
    failures.push(...sync.flatMap((s) => s.failures.map((f) => `sync: ${f}`)));
    const { result: noisy, failure: noisyFailure } = await part('noisy', 'noisy neighbour', () => runNoisyNeighbour(ctx, log));
    const { result: search, failure: searchFailure } = await part('search', 'full-text search at size', () => runSearch(ctx, log));
    const { result: slaSweep, failure: slaSweepFailure } = await part('sla', 'the SLA sweep at size', () => runSlaSweep(ctx, log));
    const { result: regression, failure: regressionFailure } = await part('regression', 'regression against a fixed base (bench/regression.sh)', () => runRegression(repoRoot, log));
    if (regression) log(`  ${regression.base}: new/old req/s ${regression.rps_ratio}, p99 ${regression.p99_ratio}; server CPU ${regression.old.server_cpu_us} -> ${regression.new.server_cpu_us} µs/request, round trips ${regression.old.round_trips} -> ${regression.new.round_trips}`);

    for (const child of children) if (child.exited()) failures.push(`${child.name} exited during the run:\n${child.output()}`);
    const results: BenchResults = {
      machine,
      config,
      scenarios,
      peakRssMb: {
        service: Number.isFinite(peakRssMb.service) ? peakRssMb.service : null,
        baseline: Number.isFinite(peakRssMb.baseline) ? peakRssMb.baseline : null,
        lean: Number.isFinite(peakRssMb.lean) ? peakRssMb.lean : null,
      },
      pgbench,
      pgbenchFailure,
      bigBodies,
      bigBodiesFailure,
      verifiedWebhook,
      verifiedWebhookFailure,
      automation,
      automationFailure,
      capacity,
      capacityFailure,
      drain,
      drainFailure,
      budget,
      budgetFailure,
      growth,
      growthFailure,
      sync,
      syncFailure,
      reports,
      reportsFailure,
      noisy,
      noisyFailure,
      search,
      searchFailure,
      slaSweep,
      slaSweepFailure,
      regression,
      regressionFailure,
      failures,
      totalSec: (Date.now() - startedAt) / 1000,
    };
    mkdirSync(dirname(config.reportPath), { recursive: true });
    const previous = existsSync(config.reportPath) ? readFileSync(config.reportPath, 'utf8') : null;
    writeFileSync(config.reportPath, keepingHead(previous, renderMarkdown(results)));
    const rawPath = join(os.tmpdir(), `${dbName}.json`);
    writeFileSync(rawPath, JSON.stringify(results, null, 2));
    log(consoleSummary(results));
    log(`\nbench: wrote ${config.reportPath} (raw results: ${rawPath})`);
    return failures.length ? 1 : 0;
  } finally {
    await cleanUp();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.stack : err);
    process.exit(1);
  },
);

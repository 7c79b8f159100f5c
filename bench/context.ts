/**
 * The shared state of one benchmark run and the few operations every scenario needs: run a
 * load against a target with a warm-up, charge the CPU to the right processes, clean up.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { type CpuWatch, type LoadRequest, type LoadSpec, type Measurement, measure, runLoad } from './load.js';
import type { NodeProcess } from './procs.js';
import { flushRedisPrefix, type Fixtures } from './setup.js';

export interface BenchConfig {
  durationSec: number;
  /** How many alternated runs every HTTP figure is the median of. */
  rounds: number;
  warmupSec: number;
  connections: number[];
  automationRate: number;
  steadyRate: number;
  automationDurationSec: number;
  automationDrainSec: number;
  /** Each measured window of the cost-growth and sync parts. */
  growthDurationSec: number;
  /** The cost-growth and sync parts fill 10k cases only (BENCH_SKIP_1M=1). */
  skip1M: boolean;
  /** Backlog drain: cases that arrive while no worker runs, the steady window before, the longest wait for the drain. */
  drainCases: number;
  drainSteadySec: number;
  drainMaxSec: number;
  /** Growth budget: retention (decimal days) and purge interval given to its worker, and how long each phase runs. */
  budgetRetentionDays: number;
  budgetPurgeIntervalMs: number;
  budgetBaselineSec: number;
  budgetDurationSec: number;
  /** Noisy neighbour: tenant B's steady webhook rate, and the cases of tenant A's workflow that its list filters scan. */
  noisyRate: number;
  noisyCases: number;
  /** Which parts run (BENCH_SCENARIOS, comma-separated; all by default). */
  scenarios: Set<BenchPart>;
  /** Which HTTP scenarios the `http` part runs (BENCH_HTTP_SCENARIOS; all by default). */
  httpScenarios: Set<string> | null;
  /** `node` flags, entry and environment settings of `npm run start:prod`, which both service processes run. */
  serviceNodeFlags: string[];
  serviceProcessEnv: Record<string, string>;
  serviceEntry: string;
  baselineEntry: string;
  reportPath: string;
}

function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
}

const SCENARIOS = ['http', 'pgbench', 'bigbody', 'verified', 'automation', 'capacity', 'drain', 'budget', 'growth', 'sync', 'reports', 'noisy', 'search', 'sla', 'regression'] as const;
export type BenchPart = (typeof SCENARIOS)[number];

function scenarioSet(raw: string | undefined): BenchConfig['scenarios'] {
  if (raw === undefined || raw === '') return new Set(SCENARIOS);
  const names = raw.split(',').map((name) => name.trim());
  for (const name of names) if (!(SCENARIOS as readonly string[]).includes(name)) throw new Error(`BENCH_SCENARIOS: unknown scenario ${name} (known: ${SCENARIOS.join(', ')})`);
  return new Set(names as BenchPart[]);
}

/**
 * Splits `[NAME=value ...] node <flags> <entry>`, the `start:prod` script, so the bench runs exactly
 * what production runs. The script's leading `. scripts/pinned-node.sh &&` only picks the Node
 * release, which the bench already runs on.
 */
function startProdCommand(repoRoot: string): { env: Record<string, string>; flags: string[]; entry: string } {
  const script = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts['start:prod'] ?? '';
  const words = script.trim().replace(/^\. scripts\/pinned-node\.sh && /, '').split(/\s+/);
  const env: Record<string, string> = {};
  while (/^[A-Z_][A-Z0-9_]*=/.test(words[0] ?? '')) {
    const [name, value] = words.shift()!.split(/=(.*)/);
    env[name!] = value!;
  }
  const [program, ...rest] = words;
  const entry = rest.pop();
  if (program !== 'node' || !entry || rest.some((arg) => !arg.startsWith('-'))) throw new Error(`start:prod must be "[NAME=value ...] node [flags] <entry>", found "${script}"`);
  return { env, flags: rest, entry: join(repoRoot, entry) };
}

export function readConfig(repoRoot: string, benchDir: string): BenchConfig {
  const startProd = startProdCommand(repoRoot);
  return {
    durationSec: envNumber('BENCH_DURATION', 15),
    rounds: Math.round(envNumber('BENCH_ROUNDS', 3)),
    warmupSec: envNumber('BENCH_WARMUP', 5),
    connections: [16, 64],
    automationRate: envNumber('BENCH_AUTOMATION_RATE', 820),
    steadyRate: envNumber('BENCH_STEADY_RATE', 520),
    automationDurationSec: envNumber('BENCH_AUTOMATION_DURATION', 60),
    automationDrainSec: envNumber('BENCH_AUTOMATION_DRAIN', 300),
    growthDurationSec: envNumber('BENCH_GROWTH_DURATION', 10),
    skip1M: process.env.BENCH_SKIP_1M === '1',
    drainCases: envNumber('BENCH_DRAIN_CASES', 100_000),
    drainSteadySec: envNumber('BENCH_DRAIN_STEADY', 30),
    drainMaxSec: envNumber('BENCH_DRAIN_MAX', 900),
    // 0.0007 days is about a minute: five minutes of intake see several purges of everything older.
    budgetRetentionDays: envNumber('BENCH_BUDGET_RETENTION_DAYS', 0.0007),
    budgetPurgeIntervalMs: envNumber('BENCH_BUDGET_PURGE_INTERVAL_MS', 10_000),
    budgetBaselineSec: envNumber('BENCH_BUDGET_BASELINE', 60),
    budgetDurationSec: envNumber('BENCH_BUDGET_DURATION', 300),
    noisyRate: envNumber('BENCH_NOISY_RATE', 250),
    noisyCases: Math.round(envNumber('BENCH_NOISY_CASES', 10_000)),
    scenarios: scenarioSet(process.env.BENCH_SCENARIOS),
    httpScenarios: process.env.BENCH_HTTP_SCENARIOS ? new Set(process.env.BENCH_HTTP_SCENARIOS.split(',').map((name) => name.trim())) : null,
    // To compare V8 settings (BENCH_NODE_FLAGS, space-separated); the default is what start:prod runs.
    serviceNodeFlags: process.env.BENCH_NODE_FLAGS !== undefined ? process.env.BENCH_NODE_FLAGS.split(' ').filter(Boolean) : startProd.flags,
    serviceProcessEnv: startProd.env,
    serviceEntry: process.env.BENCH_SERVICE_ENTRY ?? startProd.entry,
    baselineEntry: `${benchDir}/baseline/server.js`,
    reportPath: process.env.BENCH_REPORT ?? `${repoRoot}/docs/benchmarks.md`,
  };
}

/** The service, the baseline program on the service's schema, and the same program on a lean schema. */
export type TargetName = 'service' | 'baseline' | 'lean';

export interface Target {
  name: TargetName;
  url: string;
  process: NodeProcess;
  /** Postgres application_name of its pool, to charge backend CPU to it. */
  applicationName: string;
}

export interface BenchContext {
  config: BenchConfig;
  db: pg.Pool;
  dbName: string;
  redisUrl: string;
  redisPrefix: string;
  redisPid: number | null;
  fixtures: Fixtures;
  targets: Record<TargetName, Target>;
  /** The environment the service was started with (the worker gets the same plus ROLE=worker). */
  serviceEnv: Record<string, string>;
}

export function backendsOf(ctx: BenchContext, applicationName: string): () => Promise<number[]> {
  return async () => {
    const { rows } = await ctx.db.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = $1 AND application_name = $2`, [ctx.dbName, applicationName]);
    return rows.map((r) => r.pid);
  };
}

/** One request by hand first, so a misconfigured scenario fails with the answer instead of 100% non-2xx. */
export async function probe(url: string, request: LoadRequest, expected: number): Promise<void> {
  const res = await fetch(url + request.path, { method: request.method, headers: request.headers, body: request.body });
  const text = await res.text();
  if (res.status !== expected) throw new Error(`probe ${request.method} ${request.path.replace(/token=[^&]+/, 'token=…')}: ${res.status} ${text.slice(0, 300)}`);
}

/** Flushes dirty buffers before a measured run, so a checkpoint is less likely to land inside it. */
export async function checkpoint(ctx: BenchContext): Promise<void> {
  await ctx.db.query('CHECKPOINT').catch(() => undefined);
}

/** Warm-up (discarded), then the measured run, against one target. */
export async function loadTarget(
  ctx: BenchContext,
  target: Target,
  requests: LoadRequest[],
  expectedStatus: number,
  connections: number,
  durationSec: number,
): Promise<Measurement> {
  await probe(target.url, requests[0]!, expectedStatus);
  try {
    return await warmThenMeasure(ctx, { url: target.url, connections, durationSec, requests }, { targetPid: target.process.pid, postgresBackends: backendsOf(ctx, target.applicationName), redisPid: ctx.redisPid });
  } finally {
    // The baseline programs' queue has no consumer: drop its jobs so Redis does not grow run after run.
    if (target.name !== 'service') await flushRedisPrefix(ctx.redisUrl, `${ctx.redisPrefix}:baseline`);
  }
}

/** A checkpoint, the warm-up (BENCH_WARMUP seconds, discarded), then the measured run of `spec`. */
export async function warmThenMeasure(ctx: BenchContext, spec: LoadSpec, watch: CpuWatch): Promise<Measurement> {
  await checkpoint(ctx);
  if (ctx.config.warmupSec > 0) await runLoad({ ...spec, durationSec: ctx.config.warmupSec });
  return measure(spec, watch);
}

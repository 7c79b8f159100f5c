/**
 * The side-by-side HTTP scenarios: webhook intake, POST cases and GET case, each at 16 and 64
 * connections, the service and its references in turn, in BENCH_ROUNDS rounds (3): each round
 * starts with the next program, so none always meets the warmer or the larger database, and every
 * figure is the median of the rounds with their spread.
 */
import { type BenchContext, loadTarget, type TargetName } from './context.js';
import type { LoadRequest, Measurement } from './load.js';
import { createCaseBodies, webhookBodies } from './payloads.js';
import { errorCount } from './results.js';

export type ScenarioKey = 'webhook' | 'post' | 'get';

export interface ScenarioResult {
  key: ScenarioKey;
  title: string;
  connections: number;
  /** Per program, the median of its rounds (see medianOf). */
  results: Partial<Record<TargetName, Measurement>>;
  /** Per program, every round's measurement, in the order they ran. */
  rounds: Partial<Record<TargetName, Measurement[]>>;
  failures: Partial<Record<TargetName, string>>;
}

interface Scenario {
  key: ScenarioKey;
  title: string;
  expectedStatus: number;
  /** The programs compared: the lean baseline only where the issue measures against it. */
  targets: TargetName[];
  requests(ctx: BenchContext): Promise<LoadRequest[]>;
}

const json = { 'content-type': 'application/json' };
export const bearer = (ctx: BenchContext) => ({ authorization: `Bearer ${ctx.fixtures.apiToken}` });

/** GET requests of these cases of the intake workflow. */
export function casePaths(ctx: BenchContext, ids: number[]): LoadRequest[] {
  return ids.map((id) => ({ method: 'GET', path: `${ctx.fixtures.intake.casesPath}/${id}`, headers: bearer(ctx) }));
}

export function webhookRequests(ctx: BenchContext): LoadRequest[] {
  return webhookBodies().map((body) => ({ method: 'POST', path: ctx.fixtures.intake.webhookPath, headers: json, body }));
}

const SCENARIOS: Scenario[] = [
  { key: 'webhook', title: 'Webhook intake (POST case_webhooks, 2 KB body)', expectedStatus: 201, targets: ['service', 'baseline', 'lean'], requests: async (ctx) => webhookRequests(ctx) },
  {
    key: 'post',
    title: 'POST cases (Bearer API token, 2 KB body)',
    expectedStatus: 201,
    targets: ['service', 'baseline'],
    requests: async (ctx) =>
      createCaseBodies().map((body) => ({ method: 'POST', path: ctx.fixtures.intake.casesPath, headers: { ...json, ...bearer(ctx) }, body })),
  },
  {
    key: 'get',
    title: 'GET case (existing cases created through POST cases, ~2 KB attributes)',
    expectedStatus: 200,
    targets: ['service', 'baseline'],
    requests: async (ctx) => {
      const { rows } = await ctx.db.query<{ id: string }>(
        `SELECT id FROM cases WHERE workflow_id = $1 AND source = 'API' ORDER BY id DESC LIMIT 64`,
        [ctx.fixtures.intake.id],
      );
      if (rows.length === 0) throw new Error('no API-created case to GET (did the POST scenario fail?)');
      return casePaths(ctx, rows.map((r) => Number(r.id)));
    },
  },
];

export async function runHttpScenarios(ctx: BenchContext, log: (line: string) => void): Promise<ScenarioResult[]> {
  const all: ScenarioResult[] = [];
  for (const scenario of SCENARIOS.filter((s) => ctx.config.httpScenarios?.has(s.key) ?? true)) {
    for (const connections of ctx.config.connections) {
      const result: ScenarioResult = { key: scenario.key, title: scenario.title, connections, results: {}, rounds: {}, failures: {} };
      for (let round = 0; round < ctx.config.rounds; round++) {
        for (const name of rotated(scenario.targets, round)) {
          if (result.failures[name] !== undefined) continue;
          try {
            const requests = await scenario.requests(ctx);
            const m = await loadTarget(ctx, ctx.targets[name], requests, scenario.expectedStatus, connections, ctx.config.durationSec);
            (result.rounds[name] ??= []).push(m);
            log(
              `  ${scenario.key} c=${connections} round ${round + 1} ${name.padEnd(8)} ${m.requestsPerSec.toFixed(0).padStart(6)} req/s  ` +
                `p50 ${m.latencyMs.p50.toFixed(1)} ms  p99 ${m.latencyMs.p99.toFixed(1)} ms  errors ${errorCount(m)}  non2xx ${m.non2xx}  ` +
                `cpu/req: node ${m.cpuPerRequestUs.target.toFixed(0)} us, pg ${m.cpuPerRequestUs.postgres.toFixed(0)} us, redis ${m.cpuPerRequestUs.redis.toFixed(0)} us` +
                `  (load avg ${m.cpu.loadAverage1m.toFixed(2)}, other work ${(m.cpu.otherMs / m.cpu.wallMs).toFixed(2)} cores)`,
            );
          } catch (err) {
            result.failures[name] = err instanceof Error ? err.message : String(err);
            log(`  ${scenario.key} c=${connections} ${name}: FAILED ${result.failures[name]}`);
          }
        }
      }
      for (const [name, rounds] of Object.entries(result.rounds) as [TargetName, Measurement[]][]) result.results[name] = medianOf(rounds);
      all.push(result);
    }
  }
  return all;
}

/** The programs (or modes) in the order round `round` runs them: each round starts with the next one. */
export function rotated<T>(items: readonly T[], round: number): T[] {
  const first = round % items.length;
  return [...items.slice(first), ...items.slice(0, first)];
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * One measurement of the rounds: the round with the median throughput, with every latency
 * percentile and CPU-per-request figure replaced by its own median across the rounds, and the
 * errors of all rounds added up (one failed request in any round counts).
 */
export function medianOf(rounds: Measurement[]): Measurement {
  const byThroughput = [...rounds].sort((a, b) => a.requestsPerSec - b.requestsPerSec);
  const base = byThroughput[(byThroughput.length - 1) >> 1]!;
  const of = (pick: (m: Measurement) => number) => median(rounds.map(pick));
  const sum = (pick: (m: Measurement) => number) => rounds.reduce((total, m) => total + pick(m), 0);
  return {
    ...base,
    requestsPerSec: of((m) => m.requestsPerSec),
    errors: sum((m) => m.errors),
    timeouts: sum((m) => m.timeouts),
    non2xx: sum((m) => m.non2xx),
    latencyMs: { mean: of((m) => m.latencyMs.mean), p50: of((m) => m.latencyMs.p50), p90: of((m) => m.latencyMs.p90), p99: of((m) => m.latencyMs.p99), max: Math.max(...rounds.map((m) => m.latencyMs.max)) },
    cpuPerRequestUs: { target: of((m) => m.cpuPerRequestUs.target), postgres: of((m) => m.cpuPerRequestUs.postgres), redis: of((m) => m.cpuPerRequestUs.redis), all: of((m) => m.cpuPerRequestUs.all) },
  };
}

/** The lowest and highest value a figure took across the rounds. */
export function spreadOf(rounds: Measurement[] | undefined, pick: (m: Measurement) => number): [number, number] {
  const values = (rounds ?? []).map(pick);
  return values.length ? [Math.min(...values), Math.max(...values)] : [NaN, NaN];
}

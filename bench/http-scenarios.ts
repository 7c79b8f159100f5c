/**
 * The side-by-side HTTP scenarios: webhook intake, POST cases and GET case, each at 16 and 64
 * connections, service and baseline in turn (alternating which goes first, so neither always
 * meets the warmer or the larger database).
 */
import { type BenchContext, loadTarget, type TargetName } from './context.js';
import type { LoadRequest, Measurement } from './load.js';
import { createCaseBodies, webhookBodies } from './payloads.js';

export type ScenarioKey = 'webhook' | 'post' | 'get';

export interface ScenarioResult {
  key: ScenarioKey;
  title: string;
  connections: number;
  results: Partial<Record<TargetName, Measurement>>;
  failures: Partial<Record<TargetName, string>>;
}

interface Scenario {
  key: ScenarioKey;
  title: string;
  expectedStatus: number;
  requests(ctx: BenchContext): Promise<LoadRequest[]>;
}

const json = { 'content-type': 'application/json' };
const bearer = (ctx: BenchContext) => ({ authorization: `Bearer ${ctx.fixtures.apiToken}` });

/** GET requests of these cases of the intake workflow. */
export function casePaths(ctx: BenchContext, ids: number[]): LoadRequest[] {
  return ids.map((id) => ({ method: 'GET', path: `${ctx.fixtures.intake.casesPath}/${id}`, headers: bearer(ctx) }));
}

export function webhookRequests(ctx: BenchContext): LoadRequest[] {
  return webhookBodies().map((body) => ({ method: 'POST', path: ctx.fixtures.intake.webhookPath, headers: json, body }));
}

const SCENARIOS: Scenario[] = [
  { key: 'webhook', title: 'Webhook intake (POST case_webhooks, 2 KB body)', expectedStatus: 201, requests: async (ctx) => webhookRequests(ctx) },
  {
    key: 'post',
    title: 'POST cases (Bearer API token, 2 KB body)',
    expectedStatus: 201,
    requests: async (ctx) =>
      createCaseBodies().map((body) => ({ method: 'POST', path: ctx.fixtures.intake.casesPath, headers: { ...json, ...bearer(ctx) }, body })),
  },
  {
    key: 'get',
    title: 'GET case (existing cases created through POST cases, ~2 KB attributes)',
    expectedStatus: 200,
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
  let serviceFirst = true;
  for (const scenario of SCENARIOS) {
    for (const connections of ctx.config.connections) {
      const result: ScenarioResult = { key: scenario.key, title: scenario.title, connections, results: {}, failures: {} };
      const order: TargetName[] = serviceFirst ? ['service', 'baseline'] : ['baseline', 'service'];
      serviceFirst = !serviceFirst;
      for (const name of order) {
        try {
          const requests = await scenario.requests(ctx);
          const m = await loadTarget(ctx, ctx.targets[name], requests, scenario.expectedStatus, connections, ctx.config.durationSec);
          result.results[name] = m;
          log(
            `  ${scenario.key} c=${connections} ${name.padEnd(8)} ${m.requestsPerSec.toFixed(0).padStart(6)} req/s  ` +
              `p50 ${m.latencyMs.p50.toFixed(1)} ms  p99 ${m.latencyMs.p99.toFixed(1)} ms  errors ${m.errors + m.timeouts}  non2xx ${m.non2xx}  ` +
              `cpu/req: node ${m.cpuPerRequestUs.target.toFixed(0)} us, pg ${m.cpuPerRequestUs.postgres.toFixed(0)} us, redis ${m.cpuPerRequestUs.redis.toFixed(0)} us` +
              `  (load avg ${m.cpu.loadAverage1m.toFixed(2)}, other work ${(m.cpu.otherMs / m.cpu.wallMs).toFixed(2)} cores)`,
          );
        } catch (err) {
          result.failures[name] = err instanceof Error ? err.message : String(err);
          log(`  ${scenario.key} c=${connections} ${name}: FAILED ${result.failures[name]}`);
        }
      }
      all.push(result);
    }
  }
  return all;
}

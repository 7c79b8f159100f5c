/**
 * How cost grows with the data: the cases table is filled in bulk (generate_series, ~1 KB
 * attributes, one timeline event per case) to 10k and then 1M cases, and webhook intake and GET
 * case are measured at each size, on the service and on the baseline.
 */
import { type BenchContext, loadTarget, type TargetName } from './context.js';
import { casePaths, webhookRequests } from './http-scenarios.js';
import type { Measurement } from './load.js';
import { BULK_ATTRIBUTES_SQL } from './payloads.js';

export interface GrowthStep {
  /** Cases in the table when the step's measurements started. */
  cases: number;
  insertSec: number;
  tableMb: number;
  results: Partial<Record<TargetName, { webhook?: Measurement; get?: Measurement }>>;
  failures: string[];
  explainGet: string;
}

const BATCH = 100_000;

/** Fills the cases table (one workflow) with bulk cases up to `size`; the seconds it took. */
export async function fillTo(ctx: BenchContext, size: number, log: (line: string) => void): Promise<number> {
  const { rows } = await ctx.db.query<{ n: string; version: number }>(
    `SELECT (SELECT count(*) FROM cases) AS n, (SELECT version FROM workflows WHERE id = $1) AS version`,
    [ctx.fixtures.intake.id],
  );
  const started = Date.now();
  let next = Number(rows[0]!.n) + 1;
  while (next <= size) {
    const last = Math.min(size, next + BATCH - 1);
    await ctx.db.query(
      `WITH inserted AS (
         INSERT INTO cases (organization_id, workflow_id, workflow_version, subject, status, mode, source, attributes, created_at, updated_at)
         SELECT $1, $2, $3, 'Bulk case ' || g, 'Open', 'live', 'API', ${BULK_ATTRIBUTES_SQL},
                now() - ($5::int - g) * interval '1 second', now() - ($5::int - g) * interval '1 second'
         FROM generate_series($4::int, $5::int) AS g
         RETURNING id)
       INSERT INTO case_events (case_id, type, actor, data)
       SELECT id, 'created', 'api_token:0', '{"source":"API","mode":"live","status":"Open"}' FROM inserted`,
      [ctx.fixtures.organizationId, ctx.fixtures.intake.id, rows[0]!.version, next, last],
    );
    next = last + 1;
    if (size >= 1_000_000) log(`    ${last.toLocaleString('en-US')} cases`);
  }
  await ctx.db.query('VACUUM ANALYZE cases');
  await ctx.db.query('VACUUM ANALYZE case_events');
  return (Date.now() - started) / 1000;
}

export async function runGrowth(ctx: BenchContext, log: (line: string) => void): Promise<GrowthStep[]> {
  const sizes = ctx.config.skip1M ? [10_000] : [10_000, 1_000_000];
  // Start from an empty table so the first step really has 10k cases (the HTTP scenarios left more).
  await ctx.db.query('TRUNCATE cases CASCADE');
  const steps: GrowthStep[] = [];
  for (const size of sizes) {
    log(`  filling the cases table to ${size.toLocaleString('en-US')}`);
    const insertSec = await fillTo(ctx, size, log);
    const stats = (
      await ctx.db.query<{ n: string; mb: number }>(`SELECT count(*) AS n, pg_total_relation_size('cases') / 1048576.0 AS mb FROM cases`)
    ).rows[0]!;
    const ids = (
      await ctx.db.query<{ id: string }>(`SELECT id FROM cases WHERE workflow_id = $1 AND subject LIKE 'Bulk case %' ORDER BY random() LIMIT 64`, [ctx.fixtures.intake.id])
    ).rows.map((r) => Number(r.id));
    const explain = await ctx.db.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) SELECT id, attributes::text FROM cases WHERE id = $1 AND workflow_id = $2 AND organization_id = $3`,
      [ids[0], ctx.fixtures.intake.id, ctx.fixtures.organizationId],
    );
    await autovacuumDone(ctx, log);
    const step: GrowthStep = {
      cases: Number(stats.n),
      insertSec,
      tableMb: Number(stats.mb),
      results: {},
      failures: [],
      explainGet: explain.rows.map((r) => r['QUERY PLAN']).join('\n'),
    };
    for (const name of ['service', 'baseline'] as const) {
      const target = ctx.targets[name];
      const results: { webhook?: Measurement; get?: Measurement } = {};
      step.results[name] = results;
      for (const [kind, requests, status] of [
        ['webhook', webhookRequests(ctx), 201],
        ['get', casePaths(ctx, ids), 200],
      ] as const) {
        try {
          // The machine's speed drifts between windows (the baseline moves as much as the service),
          // so each figure is the better of two windows in a row: noise only ever slows a window down.
          const windows: Measurement[] = [];
          for (let i = 0; i < 2; i++) {
            const m = await loadTarget(ctx, target, requests, status, 16, ctx.config.growthDurationSec);
            windows.push(m);
            log(`  ${size.toLocaleString('en-US')} cases ${name.padEnd(8)} ${kind.padEnd(7)} ${m.requestsPerSec.toFixed(0).padStart(6)} req/s  p50 ${m.latencyMs.p50.toFixed(1)} ms  p99 ${m.latencyMs.p99.toFixed(1)} ms`);
          }
          results[kind] = windows.reduce((best, m) => (m.requestsPerSec > best.requestsPerSec ? m : best));
        } catch (err) {
          const message = `${name} ${kind} at ${size}: ${err instanceof Error ? err.message : String(err)}`;
          step.failures.push(message);
          log(`  FAILED ${message}`);
        }
      }
    }
    steps.push(step);
  }
  return steps;
}

/** Autovacuum wakes up after the fill and the earlier scenarios; measuring while it runs measures it. */
export async function autovacuumDone(ctx: BenchContext, log: (line: string) => void): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const { rows } = await ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE backend_type = 'autovacuum worker' AND datname = current_database()`,
    );
    if (rows[0]!.n === 0) return;
    if (Date.now() > deadline) return log('    autovacuum still running after 120 s; measuring anyway');
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

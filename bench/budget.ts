/**
 * Growth budget: the steady-state automation (webhook intake at BENCH_AUTOMATION_RATE, one worker)
 * first with the default retention, under which nothing is old enough to purge (the intake p99
 * without purges), then with a worker whose retention is shortened to BENCH_BUDGET_RETENTION_DAYS
 * and which purges every BENCH_BUDGET_PURGE_INTERVAL_MS, for BENCH_BUDGET_DURATION seconds: the
 * sizes of the tables that grow with the cases are sampled every purge interval.
 *
 * Needs the retention module: RETENTION_RUNS_DAYS, RETENTION_DELIVERIES_DAYS and
 * RETENTION_CLOSED_CASES_DAYS taking decimal days, RETENTION_PURGE_INTERVAL_MS, and
 * `purged_rows_total` on the worker's /metrics.
 */
import { automationIntake, probeWorker, serviceCpuWatch, startWorker, supersedeLeftoverRuns, type Worker } from './automation.js';
import { growingTableBytes } from './capacity.js';
import type { BenchContext } from './context.js';
import { type Measurement, measure } from './load.js';
import { sleep } from './procs.js';

export interface BudgetSample {
  /** Seconds since the intake with purges started. */
  atSec: number;
  bytes: Record<string, number>;
}

export interface BudgetResult {
  withoutPurges: Measurement;
  withPurges: Measurement;
  samples: BudgetSample[];
  /** The worker's `purged_rows_total` (all kinds) at the end; null when its /metrics has none. */
  purgedRows: number | null;
  /** Rows the catch-up purged (what the earlier parts left), before anything was measured. */
  caughtUpRows: number | null;
}

export const totalBytes = (s: BudgetSample) => Object.values(s.bytes).reduce((a, b) => a + b, 0);

async function purgedRows(worker: Worker): Promise<number | null> {
  const text = await (await fetch(`${worker.url}/metrics`)).text();
  const counts = text.split('\n').filter((line) => line.startsWith('purged_rows_total'));
  return counts.length ? counts.reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0) : null;
}

/** Waits until two purge intervals pass without a row purged; the rows purged until then. */
async function purgeUntilIdle(worker: Worker, intervalMs: number): Promise<number | null> {
  const deadline = Date.now() + 900_000;
  for (let before = await purgedRows(worker); Date.now() < deadline; ) {
    await sleep(2 * intervalMs);
    const now = await purgedRows(worker);
    if (now !== null && now === before) return now;
    before = now;
  }
  throw new Error('the catch-up purge was still deleting after 900 s');
}

async function withWorker<T>(ctx: BenchContext, env: Record<string, string>, run: (worker: Worker) => Promise<T>): Promise<T> {
  const worker = await startWorker(ctx, env);
  try {
    await probeWorker(ctx, worker);
    return await run(worker);
  } finally {
    await worker.process.stop();
  }
}

export async function runBudget(ctx: BenchContext, log: (line: string) => void): Promise<BudgetResult> {
  const { config } = ctx;
  // Purged rows become space for new ones only once vacuum has marked it free, as autovacuum does
  // on every managed Postgres; a server with it off (a CI setting) grows whatever the purge does.
  const { rows } = await ctx.db.query<{ autovacuum: string }>('SHOW autovacuum');
  if (rows[0]?.autovacuum !== 'on') throw new Error('autovacuum is off on this Postgres server, so no table can level off: run this part against a server with autovacuum on');
  await supersedeLeftoverRuns(ctx);
  const days = String(config.budgetRetentionDays);
  const retention = {
    RETENTION_RUNS_DAYS: days,
    RETENTION_DELIVERIES_DAYS: days,
    RETENTION_CLOSED_CASES_DAYS: days,
    RETENTION_PURGE_INTERVAL_MS: String(config.budgetPurgeIntervalMs),
  };
  // The earlier parts left millions of rows that the shortened retention makes old at once: a
  // one-off catch-up, purged here without intake so the window below measures the steady purge.
  log(`  catching up: a worker with retention ${days} days purges what the earlier parts left, without intake`);
  const caughtUpRows = await withWorker(ctx, retention, (worker) => purgeUntilIdle(worker, config.budgetPurgeIntervalMs));
  log(`  caught up: ${caughtUpRows ?? 'no'} rows purged`);
  log(`  without purges: ${config.steadyRate} cases/s for ${config.budgetBaselineSec} s`);
  const withoutPurges = await withWorker(ctx, {}, () => measure(automationIntake(ctx, config.budgetBaselineSec, config.steadyRate), serviceCpuWatch(ctx)));
  log(`  with purges: retention ${days} days, a purge every ${config.budgetPurgeIntervalMs} ms, for ${config.budgetDurationSec} s`);
  return withWorker(ctx, retention, async (worker) => {
    const samples: BudgetSample[] = [];
    const started = Date.now();
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        samples.push({ atSec: (Date.now() - started) / 1000, bytes: await growingTableBytes(ctx) });
        for (const until = Date.now() + config.budgetPurgeIntervalMs; sampling && Date.now() < until; ) await sleep(250);
      }
    })();
    let withPurges: Measurement;
    try {
      withPurges = await measure(automationIntake(ctx, config.budgetDurationSec, config.steadyRate), serviceCpuWatch(ctx));
    } finally {
      sampling = false;
      await sampler;
    }
    samples.push({ atSec: (Date.now() - started) / 1000, bytes: await growingTableBytes(ctx) });
    return { withoutPurges, withPurges, samples, purgedRows: await purgedRows(worker), caughtUpRows };
  });
}

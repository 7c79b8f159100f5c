/**
 * Backlog drain: the automation workflow's intake at the steady rate (BENCH_AUTOMATION_RATE)
 * in three phases, measured against each other:
 *  1. steady: with a worker running, for BENCH_DRAIN_STEADY seconds: the normal intake p99 and
 *     the steady-state capacity (runs finished per second while cases arrive);
 *  2. backlog: no worker, BENCH_DRAIN_CASES cases arrive;
 *  3. drain: intake goes on at the same rate, a worker starts; measured until every backlog case
 *     is Closed (or parked in Error): runs finished per second and the intake p99 meanwhile.
 */
import { automationIntake, probeWorker, serviceCpuWatch, startWorker, supersedeLeftoverRuns, UNFINISHED, waitFor, type Worker } from './automation.js';
import type { BenchContext } from './context.js';
import { type Measurement, measure } from './load.js';

export interface DrainResult {
  offeredRate: number;
  workerConcurrency: number;
  steady: { intake: Measurement; runsPerSec: number };
  backlog: { intake: Measurement; cases: number; unfinishedRuns: number };
  drain: {
    intake: Measurement;
    /** From the first run finished after the worker started to the last backlog case settling. */
    seconds: number;
    runsPerSec: number;
    chainsPerSec: number;
    /** False when the backlog was still there after BENCH_DRAIN_MAX seconds. */
    drained: boolean;
  };
  runsNotSucceeded: number;
}

const at = (ms: number) => ms / 1000;

async function maxCaseId(ctx: BenchContext): Promise<number> {
  const { rows } = await ctx.db.query<{ id: string | null }>(`SELECT max(id) AS id FROM cases WHERE workflow_id = $1`, [ctx.fixtures.automation.id]);
  return Number(rows[0]!.id ?? 0);
}

/** Runs and chains (Triage runs succeeded) of the automation workflow finished between two instants, and the first finish. */
async function finishedBetween(ctx: BenchContext, fromMs: number, toMs: number): Promise<{ runs: number; chains: number; firstMs: number | null }> {
  const { rows } = await ctx.db.query<{ runs: number; chains: number; first_ms: number | null }>(
    `SELECT count(*)::int AS runs, (count(*) FILTER (WHERE status = 'Triage' AND state = 'succeeded'))::int AS chains,
            extract(epoch FROM min(finished_at)) * 1000 AS first_ms
     FROM workflow_runs WHERE workflow_id = $1 AND finished_at BETWEEN to_timestamp($2) AND to_timestamp($3)`,
    [ctx.fixtures.automation.id, at(fromMs), at(toMs)],
  );
  const row = rows[0]!;
  return { runs: row.runs, chains: row.chains, firstMs: row.first_ms === null ? null : Number(row.first_ms) };
}

const unfinishedRuns = async (ctx: BenchContext, afterCase: number, upToCase = Number.MAX_SAFE_INTEGER) =>
  (
    await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM workflow_runs WHERE workflow_id = $1 AND case_id > $2 AND case_id <= $3 AND ${UNFINISHED}`, [
      ctx.fixtures.automation.id,
      afterCase,
      upToCase,
    ])
  ).rows[0]!.n;

/** Backlog cases not yet settled: a case is done when Closed, or parked in Error by the engine. */
const unsettledCases = async (ctx: BenchContext, afterCase: number, upToCase: number) =>
  (
    await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM cases WHERE workflow_id = $1 AND id > $2 AND id <= $3 AND status NOT IN ('Closed', 'Error')`, [
      ctx.fixtures.automation.id,
      afterCase,
      upToCase,
    ])
  ).rows[0]!.n;

async function allRunsFinished(ctx: BenchContext, worker: Worker, afterCase: number, timeoutSec: number): Promise<void> {
  await waitFor('every run finishing', timeoutSec * 1000, async () => (await unfinishedRuns(ctx, afterCase)) === 0, worker.alive);
}

async function steadyPhase(ctx: BenchContext, log: (line: string) => void): Promise<{ probeId: number; concurrency: number; intake: Measurement; runsPerSec: number }> {
  const worker = await startWorker(ctx);
  try {
    const probeId = await probeWorker(ctx, worker);
    log(`  steady: ${ctx.config.steadyRate} cases/s for ${ctx.config.drainSteadySec} s with the worker running`);
    const started = Date.now();
    const intake = await measure(automationIntake(ctx, ctx.config.drainSteadySec, ctx.config.steadyRate), serviceCpuWatch(ctx));
    const ended = Date.now();
    const { runs } = await finishedBetween(ctx, started, ended);
    await allRunsFinished(ctx, worker, probeId, ctx.config.automationDrainSec);
    return { probeId, concurrency: worker.concurrency, intake, runsPerSec: runs / at(ended - started) };
  } finally {
    await worker.process.stop();
  }
}

export async function runDrain(ctx: BenchContext, log: (line: string) => void): Promise<DrainResult> {
  const { config } = ctx;
  await supersedeLeftoverRuns(ctx);
  const steady = await steadyPhase(ctx, log);
  log(`  steady: ${steady.runsPerSec.toFixed(0)} runs/s, intake p99 ${steady.intake.latencyMs.p99.toFixed(1)} ms`);

  const backlogAfter = await maxCaseId(ctx);
  const backlogSec = Math.ceil(config.drainCases / config.steadyRate);
  log(`  backlog: worker stopped, ${config.steadyRate} cases/s for ${backlogSec} s`);
  const backlogIntake = await measure(automationIntake(ctx, backlogSec, config.steadyRate), serviceCpuWatch(ctx));
  const backlogUpTo = await maxCaseId(ctx);
  const backlog = { intake: backlogIntake, cases: backlogIntake.ok, unfinishedRuns: await unfinishedRuns(ctx, backlogAfter, backlogUpTo) };

  log(`  drain: ${backlog.cases} cases (${backlog.unfinishedRuns} runs) waiting; a worker starts while intake goes on`);
  const stopIntake = new AbortController();
  const drainIntake = measure(automationIntake(ctx, config.drainMaxSec, config.steadyRate), serviceCpuWatch(ctx), stopIntake.signal);
  // Awaited below; this only keeps a failure from going unhandled while the worker is watched.
  drainIntake.catch(() => undefined);
  const workerStarted = Date.now();
  const worker = await startWorker(ctx);
  try {
    let drained = true;
    try {
      await waitFor('the backlog draining', config.drainMaxSec * 1000, async () => (await unsettledCases(ctx, backlogAfter, backlogUpTo)) === 0, worker.alive);
    } catch (err) {
      worker.alive();
      drained = false;
      log(`  ${err instanceof Error ? err.message : String(err)}`);
    }
    const drainEnded = Date.now();
    stopIntake.abort();
    const intake = await drainIntake;
    const finished = await finishedBetween(ctx, workerStarted, drainEnded);
    const seconds = at(drainEnded - (finished.firstMs ?? drainEnded));
    // The cases that came in while the backlog drained queued behind it: at an intake close to
    // capacity they take about as long again as the drain did.
    await allRunsFinished(ctx, worker, steady.probeId, config.drainMaxSec);
    const { rows } = await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM workflow_runs WHERE workflow_id = $1 AND case_id > $2 AND state <> 'succeeded'`, [
      ctx.fixtures.automation.id,
      steady.probeId,
    ]);
    return {
      offeredRate: config.steadyRate,
      workerConcurrency: steady.concurrency,
      steady: { intake: steady.intake, runsPerSec: steady.runsPerSec },
      backlog,
      drain: { intake, seconds, runsPerSec: finished.runs / seconds, chainsPerSec: finished.chains / seconds, drained },
      runsNotSucceeded: rows[0]!.n,
    };
  } finally {
    stopIntake.abort();
    await worker.process.stop();
  }
}

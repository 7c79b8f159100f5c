/**
 * Automation throughput: with a worker process running (ROLE=worker), cases are created through
 * the service's webhook at a steady rate on a workflow whose Open run is `set_attributes` +
 * `set_status Triage` and whose Triage run is `close`: three steps, two runs per case. Measured
 * from `workflow_runs`: runs and whole chains completed per second, and the lag from a case's
 * creation to its last run finishing.
 */
import { type BenchContext, backendsOf } from './context.js';
import { type CpuWatch, type LoadSpec, type Measurement, measure } from './load.js';
import { webhookBodies } from './payloads.js';
import { cpuTimeMs, type NodeProcess, nodeArgs, procStatusKb, sleep, startNode } from './procs.js';
import { freePort } from '../scripts/local-infra.js';
import { Env } from '../src/shared/config/env.js';

export interface AutomationResult {
  offeredRate: number;
  durationSec: number;
  workerConcurrency: number;
  intake: Measurement;
  cases: number;
  closedCases: number;
  runStates: Record<string, number>;
  runsNotSucceeded: number;
  unfinishedAtEnd: number;
  /** From the first case's creation to the last run's end. */
  windowSec: number;
  runsPerSec: number;
  chainsPerSec: number;
  /** Completed while cases were being created (the steady state). */
  sustainedRunsPerSec: number;
  sustainedChainsPerSec: number;
  lagMs: { p50: number; p99: number; max: number };
  maxBacklog: number;
  drainSec: number;
  workerCpuMs: number;
  apiCpuMs: number;
  workerPeakRssMb: number | null;
  leftoverRunsSuperseded: number;
}

export const UNFINISHED = `state IN ('pending', 'running', 'waiting')`;

async function postWebhookCase(ctx: BenchContext): Promise<number> {
  const res = await fetch(ctx.targets.service.url + ctx.fixtures.automation.webhookPath, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: webhookBodies()[0],
  });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`automation probe case: ${res.status} ${text}`);
  return (JSON.parse(text) as { case: { id: number } }).case.id;
}

export async function waitFor(what: string, timeoutMs: number, check: () => Promise<boolean>, alive: () => void): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    alive();
    if (await check()) return;
    await sleep(250);
  }
  throw new Error(`${what} did not happen within ${timeoutMs / 1000} s`);
}

/** Runs left pending by earlier parts (no worker ran then) must not compete with the one measuring. */
export async function supersedeLeftoverRuns(ctx: BenchContext): Promise<number> {
  const leftover = await ctx.db.query(`UPDATE workflow_runs SET state = 'superseded', finished_at = now(), locked_until = NULL WHERE ${UNFINISHED}`);
  // ... and their dead index entries (the partial index of unfinished runs) must not slow the relay down.
  await ctx.db.query('VACUUM ANALYZE workflow_runs');
  return leftover.rowCount ?? 0;
}

export interface Worker {
  process: NodeProcess;
  /** Where it serves its probes and /metrics. */
  url: string;
  concurrency: number;
  /** Throws with the worker's output when it has exited. */
  alive(): void;
}

/** A worker process (ROLE=worker) beside the API, with BENCH_WORKER_CONCURRENCY (the service's default) and `env` added. */
export async function startWorker(ctx: BenchContext, env: Record<string, string> = {}): Promise<Worker> {
  const concurrency = Number(process.env.BENCH_WORKER_CONCURRENCY ?? new Env().WORKER_CONCURRENCY);
  const port = await freePort();
  const worker = startNode('worker', nodeArgs('worker', ctx.config.serviceEntry, ctx.config.serviceNodeFlags), {
    ...ctx.serviceEnv,
    ...env,
    ROLE: 'worker',
    WORKER_CONCURRENCY: String(concurrency),
    PORT: String(port),
  });
  return {
    process: worker,
    url: `http://127.0.0.1:${port}`,
    concurrency,
    alive: () => {
      if (worker.exited()) throw new Error(`the worker exited:\n${worker.output()}`);
    },
  };
}

/** Ready = a probe case went through both runs (this also warms the worker up); returns the probe's id. */
export async function probeWorker(ctx: BenchContext, worker: Worker): Promise<number> {
  const probeId = await postWebhookCase(ctx);
  await waitFor('the probe case closing', 90_000, async () => (await ctx.db.query(`SELECT 1 FROM cases WHERE id = $1 AND status = 'Closed'`, [probeId])).rowCount === 1, worker.alive);
  return probeId;
}

/** Webhook intake on the automation workflow at `rate` cases/s. */
export function automationIntake(ctx: BenchContext, durationSec: number, rate: number): LoadSpec {
  return {
    url: ctx.targets.service.url,
    connections: 16,
    durationSec,
    overallRate: rate,
    requests: webhookBodies().map((body) => ({ method: 'POST', path: ctx.fixtures.automation.webhookPath, headers: { 'content-type': 'application/json' }, body })),
  };
}

export const serviceCpuWatch = (ctx: BenchContext): CpuWatch => ({
  targetPid: ctx.targets.service.process.pid,
  postgresBackends: backendsOf(ctx, ctx.targets.service.applicationName),
  redisPid: ctx.redisPid,
});

export async function runAutomation(ctx: BenchContext, log: (line: string) => void): Promise<AutomationResult> {
  const { config, db, fixtures } = ctx;
  const workflowId = fixtures.automation.id;
  const leftoverRunsSuperseded = await supersedeLeftoverRuns(ctx);
  const worker = await startWorker(ctx);
  const { alive } = worker;
  try {
    const probeId = await probeWorker(ctx, worker);
    log(`  worker ready (probe case ${probeId} closed); offering ${config.automationRate} cases/s for ${config.automationDurationSec} s`);

    let maxBacklog = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const { rows } = await db.query<{ n: string }>(`SELECT count(*) AS n FROM workflow_runs WHERE ${UNFINISHED}`);
        maxBacklog = Math.max(maxBacklog, Number(rows[0]!.n));
        await sleep(1000);
      }
    })();
    const workerCpuBefore = cpuTimeMs(worker.process.pid);
    const started = Date.now();
    let intake: Measurement;
    try {
      intake = await measure(automationIntake(ctx, config.automationDurationSec, config.automationRate), serviceCpuWatch(ctx));
    } finally {
      sampling = false;
      await sampler;
    }
    const ended = Date.now();
    log(`  intake done: ${intake.ok} cases (${intake.okPerSec.toFixed(0)}/s), ${intake.errors + intake.timeouts} errors, ${intake.non2xx} non-2xx; draining`);

    const unfinished = async () =>
      Number((await db.query<{ n: string }>(`SELECT count(*) AS n FROM workflow_runs WHERE workflow_id = $1 AND case_id > $2 AND ${UNFINISHED}`, [workflowId, probeId])).rows[0]!.n);
    let unfinishedAtEnd = 0;
    try {
      await waitFor('draining the runs', config.automationDrainSec * 1000, async () => (await unfinished()) === 0, alive);
    } catch {
      unfinishedAtEnd = await unfinished();
      log(`  ${unfinishedAtEnd} runs still unfinished after ${config.automationDrainSec} s`);
    }
    const drainSec = (Date.now() - ended) / 1000;
    const workerCpuMs = cpuTimeMs(worker.process.pid) - workerCpuBefore;
    const workerPeakRssKb = procStatusKb(worker.process.pid, 'VmHWM');

    const summary = (
      await db.query(
        `WITH c AS (SELECT id, created_at, status FROM cases WHERE workflow_id = $1 AND id > $2),
              r AS (SELECT case_id, status, state, finished_at FROM workflow_runs WHERE workflow_id = $1 AND case_id > $2)
         SELECT (SELECT count(*) FROM c)::int AS cases,
                (SELECT count(*) FILTER (WHERE status = 'Closed') FROM c)::int AS closed,
                (SELECT coalesce(json_object_agg(state, n), '{}') FROM (SELECT state, count(*)::int AS n FROM r GROUP BY state) s) AS states,
                extract(epoch FROM (SELECT max(finished_at) FROM r) - (SELECT min(created_at) FROM c))::float AS window_sec,
                (SELECT count(*) FROM r WHERE finished_at BETWEEN to_timestamp($3 / 1000.0) AND to_timestamp($4 / 1000.0))::int AS runs_in_window,
                (SELECT count(*) FROM r WHERE status = 'Triage' AND state = 'succeeded'
                   AND finished_at BETWEEN to_timestamp($3 / 1000.0) AND to_timestamp($4 / 1000.0))::int AS chains_in_window`,
        [workflowId, probeId, started, ended],
      )
    ).rows[0] as { cases: number; closed: number; states: Record<string, number>; window_sec: number | null; runs_in_window: number; chains_in_window: number };
    const lag = (
      await db.query(
        `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY lag) AS p50, percentile_cont(0.99) WITHIN GROUP (ORDER BY lag) AS p99, max(lag) AS max
         FROM (SELECT extract(epoch FROM max(r.finished_at) - c.created_at) * 1000 AS lag
               FROM cases c JOIN workflow_runs r ON r.case_id = c.id
               WHERE c.workflow_id = $1 AND c.id > $2
               GROUP BY c.id, c.created_at HAVING bool_and(r.finished_at IS NOT NULL)) per_case`,
        [workflowId, probeId],
      )
    ).rows[0] as { p50: number | null; p99: number | null; max: number | null };

    const succeeded = summary.states.succeeded ?? 0;
    const totalRuns = Object.values(summary.states).reduce((a, b) => a + b, 0);
    const windowSec = summary.window_sec ?? NaN;
    const intakeSec = (ended - started) / 1000;
    return {
      offeredRate: config.automationRate,
      durationSec: config.automationDurationSec,
      workerConcurrency: worker.concurrency,
      intake,
      cases: summary.cases,
      closedCases: summary.closed,
      runStates: summary.states,
      runsNotSucceeded: totalRuns - succeeded,
      unfinishedAtEnd,
      windowSec,
      runsPerSec: succeeded / windowSec,
      chainsPerSec: summary.closed / windowSec,
      sustainedRunsPerSec: summary.runs_in_window / intakeSec,
      sustainedChainsPerSec: summary.chains_in_window / intakeSec,
      lagMs: { p50: Number(lag.p50 ?? NaN), p99: Number(lag.p99 ?? NaN), max: Number(lag.max ?? NaN) },
      maxBacklog,
      drainSec,
      workerCpuMs,
      apiCpuMs: intake.cpu.targetMs,
      workerPeakRssMb: workerPeakRssKb === null ? null : workerPeakRssKb / 1024,
      leftoverRunsSuperseded,
    };
  } finally {
    await worker.process.stop();
  }
}

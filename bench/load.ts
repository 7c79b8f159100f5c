/**
 * Runs the load generator (bench/load-worker.ts) as a child process and accounts for the CPU
 * the run cost: the server under test, the Postgres backends of the benchmark database, Redis,
 * the load generator, and whatever else the machine did meanwhile (other users of the machine).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuTimeMs, machineCpu } from './procs.js';

export interface LoadRequest {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface LoadSpec {
  url: string;
  connections: number;
  durationSec: number;
  requests: LoadRequest[];
  /** Requests per second across all connections (a steady rate instead of as fast as possible). */
  overallRate?: number;
  timeoutSec?: number;
}

export interface LoadResult {
  durationSec: number;
  /** autocannon's mean of the per-second response counts. */
  requestsPerSec: number;
  /** 2xx responses per second over the run. */
  okPerSec: number;
  ok: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  /** Of the 2xx responses. */
  latencyMs: { mean: number; p50: number; p90: number; p99: number; max: number };
  loadGeneratorCpuMs: number;
}

/** Which processes to charge CPU time to while a load runs. */
export interface CpuWatch {
  targetPid: number;
  /** Backends of the benchmark database (pid -> CPU ms), read before and after. */
  postgresBackends: () => Promise<number[]>;
  redisPid: number | null;
}

export interface Measurement extends LoadResult {
  cpu: {
    targetMs: number;
    postgresMs: number;
    redisMs: number;
    machineBusyMs: number;
    /** Busy time of the machine not explained by the target, its Postgres backends, Redis and the load generator. */
    otherMs: number;
    /** Wall time the counters cover (the load generator's whole life). */
    wallMs: number;
    loadAverage1m: number;
  };
  /** CPU microseconds per 2xx response. */
  cpuPerRequestUs: { target: number; postgres: number; redis: number; all: number };
}

const WORKER = fileURLToPath(new URL('./load-worker.js', import.meta.url));
const TICK_MS = 10;

/** One autocannon run in its own process; `stop` ends it early (it still reports what it measured). */
export async function runLoad(spec: LoadSpec, stop?: AbortSignal): Promise<LoadResult> {
  const dir = mkdtempSync(join(tmpdir(), 'cis-bench-load-'));
  const specFile = join(dir, 'spec.json');
  writeFileSync(specFile, JSON.stringify(spec));
  try {
    return await new Promise<LoadResult>((resolve, reject) => {
      const child = spawn(process.execPath, [WORKER, specFile], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
      child.once('error', reject);
      stop?.addEventListener('abort', () => child.kill('SIGTERM'), { once: true });
      child.once('exit', (code) => {
        if (code !== 0) return reject(new Error(`load generator failed (exit ${code}): ${err.trim()}`));
        try {
          resolve(JSON.parse(out.trim().split('\n').pop()!) as LoadResult);
        } catch {
          reject(new Error(`load generator printed no result: ${out} ${err}`));
        }
      });
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A measured load run, with the CPU time each part of the stack spent on it. */
export async function measure(spec: LoadSpec, watch: CpuWatch, stop?: AbortSignal): Promise<Measurement> {
  const pgBefore = new Map((await watch.postgresBackends()).map((pid) => [pid, cpuTimeMs(pid)]));
  const targetBefore = cpuTimeMs(watch.targetPid);
  const redisBefore = watch.redisPid ? cpuTimeMs(watch.redisPid) : 0;
  const machineBefore = machineCpu();
  const loadAverage1m = loadavg()[0]!;

  const result = await runLoad(spec, stop);

  const machineAfter = machineCpu();
  const targetMs = cpuTimeMs(watch.targetPid) - targetBefore;
  const redisMs = watch.redisPid ? cpuTimeMs(watch.redisPid) - redisBefore : 0;
  const pgAfter = await watch.postgresBackends();
  const postgresMs = pgAfter.reduce((sum, pid) => sum + Math.max(0, cpuTimeMs(pid) - (pgBefore.get(pid) ?? 0)), 0);
  const machineBusyMs = (machineAfter.busy - machineBefore.busy) * TICK_MS;
  const wallMs = ((machineAfter.total - machineBefore.total) * TICK_MS) / cpus().length;
  const explained = targetMs + postgresMs + redisMs + result.loadGeneratorCpuMs;
  const perRequest = (ms: number) => (result.ok > 0 ? (ms * 1000) / result.ok : NaN);
  return {
    ...result,
    cpu: { targetMs, postgresMs, redisMs, machineBusyMs, otherMs: Math.max(0, machineBusyMs - explained), wallMs, loadAverage1m },
    cpuPerRequestUs: {
      target: perRequest(targetMs),
      postgres: perRequest(postgresMs),
      redis: perRequest(redisMs),
      all: perRequest(machineBusyMs),
    },
  };
}

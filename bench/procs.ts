/**
 * Child processes of the benchmark (the service, the baseline, the load generator) and what the
 * benchmark reads about processes from /proc: CPU time, peak RSS, whole-machine CPU.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

const CLOCK_TICKS_PER_SEC = 100; // getconf CLK_TCK on Linux
const live = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface NodeProcess {
  name: string;
  pid: number;
  /** The last lines the process wrote (stdout and stderr). */
  output(): string;
  exited(): boolean;
  stop(): Promise<void>;
}

/**
 * `node` arguments for a program: its own `flags`, and with BENCH_CPU_PROF=<dir> a V8 CPU
 * profile (`node --cpu-prof`) written there when it stops.
 */
export function nodeArgs(name: string, entry: string, flags: string[] = []): string[] {
  const dir = process.env.BENCH_CPU_PROF;
  const profile = dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`, `--cpu-prof-name=${name}-${Date.now()}.cpuprofile`] : [];
  return [...flags, ...profile, entry];
}

/** Starts `node <entry>` with `env` added to this process's environment. */
export function startNode(name: string, args: string[], env: Record<string, string>): NodeProcess {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(child);
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    if (lines.length > 200) lines.splice(0, lines.length - 200);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  let exitInfo: string | undefined;
  const exitedPromise = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exitInfo = signal ? `killed by ${signal}` : `exit code ${code}`;
      live.delete(child);
      resolve();
    }),
  );
  return {
    name,
    pid: child.pid!,
    output: () => `${lines.slice(-40).join('\n')}${exitInfo ? `\n(${name} ${exitInfo})` : ''}`,
    exited: () => exitInfo !== undefined,
    async stop() {
      if (exitInfo !== undefined) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exitedPromise;
      clearTimeout(timer);
    },
  };
}

/** Polls `url` until it answers 200; fails with the process's output if it exits or takes too long. */
export async function waitUntilReady(proc: NodeProcess, url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.exited()) throw new Error(`${proc.name} exited before it was ready:\n${proc.output()}`);
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(`${proc.name} was not ready within ${timeoutMs / 1000} s:\n${proc.output()}`);
}

/** User + system CPU time of a process in milliseconds (0 when it is gone or unreadable). */
export function cpuTimeMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[11] and fields[12] are utime and stime (the 14th and 15th of the whole line).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SEC;
  } catch {
    return 0;
  }
}

export function totalCpuTimeMs(pids: number[]): number {
  return pids.reduce((sum, pid) => sum + cpuTimeMs(pid), 0);
}

/** A field of /proc/<pid>/status in kB (VmHWM = peak resident set, VmRSS = current). */
export function procStatusKb(pid: number, field: 'VmHWM' | 'VmRSS'): number | null {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

/** Whole-machine CPU counters from /proc/stat, in ticks: busy (not idle, not iowait) and total. */
export function machineCpu(): { busy: number; total: number } {
  const [first] = readFileSync('/proc/stat', 'utf8').split('\n');
  const ticks = first!.trim().split(/\s+/).slice(1, 9).map(Number);
  const total = ticks.reduce((a, b) => a + b, 0);
  const idle = ticks[3]! + ticks[4]!;
  return { busy: total - idle, total };
}

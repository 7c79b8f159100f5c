/**
 * Regression (issue 22): this checkout against a fixed base commit (BENCH_REGRESSION_BASE,
 * default 45e99a2, the code before the round of issues 16-21), webhook intake side by side as
 * ../shared/tools/perf-ab/perf-ab.sh runs it, by bench/regression.sh: besides req/s and p99 it
 * reports what a request costs, server and Postgres CPU and round trips, which hold on a busy
 * machine where req/s does not. The base is checked out in a worktree of its own under the
 * system's temporary folder and built there once (it reuses this checkout's node_modules: the
 * dependencies added since then are not the base's). BENCH_REGRESSION_CONNECTIONS (64),
 * BENCH_REGRESSION_REPS (3) and BENCH_REGRESSION_DURATION (15 s) set the runs.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { freePort } from '../scripts/local-infra.js';
import { type BenchResults, int, ms } from './results.js';

export interface RegressionCost {
  rps: number;
  p99_ms: number;
  errors: number;
  server_cpu_us: number;
  server_system_us: number;
  postgres_cpu_us: number;
  statements: number;
  round_trips: number;
}

export interface RegressionResult {
  base: string;
  connections: number;
  old: RegressionCost;
  new: RegressionCost;
  rps_ratio: number;
  p99_ratio: number;
}

const setting = (name: string, fallback: string) => process.env[name] || fallback;

export async function runRegression(repoRoot: string, log: (line: string) => void): Promise<RegressionResult> {
  const git = (...args: string[]) => execFileSync('git', ['-C', repoRoot, ...args], { encoding: 'utf8' }).trim();
  const base = git('rev-parse', '--short', `${setting('BENCH_REGRESSION_BASE', '45e99a2')}^{commit}`);
  const dir = join(os.tmpdir(), `cis-bench-base-${base}`);
  if (!existsSync(dir)) git('worktree', 'add', '--detach', dir, base);
  if (!existsSync(join(dir, 'node_modules'))) symlinkSync(join(repoRoot, 'node_modules'), join(dir, 'node_modules'));
  if (!existsSync(join(dir, 'dist', 'main.js'))) {
    log(`  building ${base} in ${dir}`);
    execFileSync('scripts/with-node.sh', ['npm', 'run', 'build'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  const out = execFileSync(join(repoRoot, 'bench', 'regression.sh'), [dir, repoRoot], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, PORT_BASE: String(await freePort()), PORT_NEXT: String(await freePort()), CONNS: setting('BENCH_REGRESSION_CONNECTIONS', '64'), REPS: setting('BENCH_REGRESSION_REPS', '3'), DUR: setting('BENCH_REGRESSION_DURATION', '15') },
  });
  for (const line of out.split('\n')) if (line.includes(' run ')) log(`  ${line}`);
  const result = /^RESULT (.*)$/m.exec(out)?.[1];
  if (!result) throw new Error(`bench/regression.sh answered no result:\n${out}`);
  return { base, ...(JSON.parse(result) as Omit<RegressionResult, 'base'>) };
}

export function regressionSection(r: BenchResults): string[] {
  const x = r.regression;
  const title = '## Regression against a fixed base';
  if (!x) return [title, '', `Not measured${r.regressionFailure ? `: ${r.regressionFailure}` : ''}.`, ''];
  const row = (name: string, c: RegressionCost) =>
    `| ${name} | ${int(c.rps)} | ${ms(c.p99_ms)} | ${c.server_cpu_us} (${c.server_system_us}) | ${c.postgres_cpu_us} | ${c.statements} | ${c.round_trips} | ${c.errors} |`;
  return [
    title,
    '',
    `Webhook intake (2 KB body) at ${x.connections} connections, ${x.base} and this checkout side by side (bench/regression.sh, medians of the alternated runs): req/s new/old ${x.rps_ratio}, p99 ${x.p99_ratio}. CPU per request in µs (of it in the kernel); statements and round trips to Postgres per request.`,
    '',
    '| build | req/s | p99 ms | server CPU µs | Postgres CPU µs | statements | round trips | errors |',
    '| - | - | - | - | - | - | - | - |',
    row(x.base, x.old),
    row('this checkout', x.new),
    '',
  ];
}

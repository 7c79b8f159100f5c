/**
 * Turns the results of a run into the console summary and `docs/benchmarks.md`: the machine,
 * the issue's targets with pass/fail, a table per scenario, the automation numbers and the
 * cost-growth table.
 */
import type { AutomationResult } from './automation.js';
import type { BenchConfig } from './context.js';
import type { GrowthStep } from './growth.js';
import type { ScenarioKey, ScenarioResult } from './http-scenarios.js';
import type { Measurement } from './load.js';

export interface MachineInfo {
  date: string;
  cpuModel: string;
  cores: number;
  memoryGb: number;
  kernel: string;
  node: string;
  postgres: string;
  postgresSettings: Record<string, string>;
  redis: string;
  loadAverageAtStart: number[];
  /** The commit measured. */
  code: string;
}

export interface BenchResults {
  machine: MachineInfo;
  config: BenchConfig;
  scenarios: ScenarioResult[];
  peakRssMb: { service: number | null; baseline: number | null };
  automation: AutomationResult | null;
  automationFailure: string | null;
  growth: GrowthStep[];
  growthFailure: string | null;
  failures: string[];
  totalSec: number;
}

export interface TargetCheck {
  target: string;
  measured: string;
  pass: boolean | null;
}

const ms = (v: number) => (Number.isFinite(v) ? (v < 10 ? v.toFixed(2) : v.toFixed(1)) : '–');
const int = (v: number) => (Number.isFinite(v) ? Math.round(v).toLocaleString('en-US') : '–');
const pct = (v: number) => (Number.isFinite(v) ? `${(v * 100).toFixed(0)}%` : '–');
const mark = (pass: boolean | null) => (pass === null ? 'n/a' : pass ? 'PASS' : 'FAIL');
const errorCount = (m: Measurement) => m.errors + m.timeouts;

function scenarioRows(results: ScenarioResult[], key: ScenarioKey): ScenarioResult[] {
  return results.filter((r) => r.key === key);
}

function ratio(r: ScenarioResult): number {
  const s = r.results.service;
  const b = r.results.baseline;
  return s && b ? s.requestsPerSec / b.requestsPerSec : NaN;
}

function p99Ratio(r: ScenarioResult): number {
  const s = r.results.service;
  const b = r.results.baseline;
  return s && b ? s.latencyMs.p99 / b.latencyMs.p99 : NaN;
}

function throughputCheck(results: ScenarioResult[], key: ScenarioKey, label: string, min: number): TargetCheck[] {
  return scenarioRows(results, key).map((r) => {
    const value = ratio(r);
    return {
      target: `${label} at ${r.connections} connections: >= ${pct(min)} of the baseline's req/s`,
      measured: `${pct(value)} (${int(r.results.service?.requestsPerSec ?? NaN)} vs ${int(r.results.baseline?.requestsPerSec ?? NaN)} req/s)`,
      pass: Number.isFinite(value) ? value >= min : false,
    };
  });
}

function growthChecks(growth: GrowthStep[]): TargetCheck[] {
  const small = growth.find((g) => g.cases < 100_000);
  const large = growth.find((g) => g.cases >= 1_000_000);
  if (!small || !large) {
    return [{ target: 'Intake and GET latency with 1M cases within 20% of 10k', measured: 'not measured (BENCH_SKIP_1M=1 or failed)', pass: null }];
  }
  const checks: TargetCheck[] = [];
  for (const kind of ['webhook', 'get'] as const) {
    const a = small.results.service?.[kind];
    const b = large.results.service?.[kind];
    for (const p of ['p50', 'p99'] as const) {
      const growthRatio = a && b ? b.latencyMs[p] / a.latencyMs[p] : NaN;
      checks.push({
        target: `${kind === 'webhook' ? 'Intake' : 'GET'} ${p} with 1M cases within 20% of 10k`,
        measured: `${ms(b?.latencyMs[p] ?? NaN)} ms vs ${ms(a?.latencyMs[p] ?? NaN)} ms (${Number.isFinite(growthRatio) ? `${growthRatio >= 1 ? '+' : ''}${((growthRatio - 1) * 100).toFixed(0)}%` : '–'})`,
        pass: Number.isFinite(growthRatio) ? growthRatio <= 1.2 : false,
      });
    }
  }
  return checks;
}

export function evaluateTargets(r: BenchResults): TargetCheck[] {
  const checks: TargetCheck[] = [...throughputCheck(r.scenarios, 'webhook', 'Webhook intake', 0.8)];
  for (const row of scenarioRows(r.scenarios, 'webhook')) {
    const value = p99Ratio(row);
    checks.push({
      target: `Webhook intake at ${row.connections} connections: p99 <= 1.5x the baseline's`,
      measured: `${Number.isFinite(value) ? value.toFixed(2) : '–'}x (${ms(row.results.service?.latencyMs.p99 ?? NaN)} vs ${ms(row.results.baseline?.latencyMs.p99 ?? NaN)} ms)`,
      pass: Number.isFinite(value) ? value <= 1.5 : false,
    });
    const s = row.results.service;
    checks.push({
      target: `Webhook intake at ${row.connections} connections: zero errors`,
      measured: s ? `${errorCount(s)} errors, ${s.non2xx} non-2xx` : 'not measured',
      pass: s ? errorCount(s) === 0 && s.non2xx === 0 : false,
    });
  }
  checks.push(...throughputCheck(r.scenarios, 'post', 'POST cases', 0.75), ...throughputCheck(r.scenarios, 'get', 'GET case', 0.6));
  const a = r.automation;
  checks.push({
    target: 'Automation: >= 500 three-step runs/s sustained for 60 s',
    measured: a
      ? `${a.sustainedChainsPerSec.toFixed(0)} chains/s completed while intake ran (${a.offeredRate}/s offered for ${a.durationSec} s; ` +
        `${a.chainsPerSec.toFixed(0)} chains/s and ${a.runsPerSec.toFixed(0)} runs/s over the whole window)`
      : `not measured${r.automationFailure ? `: ${r.automationFailure}` : ''}`,
    pass: a ? a.offeredRate >= 500 && a.durationSec >= 60 && a.sustainedChainsPerSec >= 500 : false,
  });
  checks.push({
    target: 'Automation: queue lag p99 < 2 s',
    measured: a ? `${ms(a.lagMs.p99)} ms (p50 ${ms(a.lagMs.p50)} ms)` : 'not measured',
    pass: a ? a.lagMs.p99 < 2000 && a.unfinishedAtEnd === 0 : false,
  });
  checks.push({
    target: 'API process peak RSS under load <= 300 MB',
    measured: r.peakRssMb.service === null ? 'unknown' : `${r.peakRssMb.service.toFixed(0)} MB`,
    pass: r.peakRssMb.service === null ? null : r.peakRssMb.service <= 300,
  });
  checks.push(...growthChecks(r.growth));
  return checks;
}

/** Cores' worth of CPU the rest of the machine used during a run (other users: interference). */
const otherCores = (m: Measurement) => m.cpu.otherMs / m.cpu.wallMs;

function interferenceNote(r: BenchResults): string {
  const runs = r.scenarios.flatMap((s) => Object.values(s.results));
  if (runs.length === 0) return '';
  const mean = runs.reduce((sum, m) => sum + otherCores(m), 0) / runs.length;
  const worst = Math.max(...runs.map(otherCores));
  const verdict =
    mean > 0.2
      ? '**The machine was busy with other work during this run**: the numbers below are disturbed, compare service and baseline only within one row pair and prefer a rerun on a quiet machine.'
      : 'The machine was otherwise quiet during this run.';
  return `Other work on the machine during the HTTP scenarios: ${mean.toFixed(2)} cores on average, ${worst.toFixed(2)} at worst (of ${r.machine.cores}). ${verdict}`;
}

function cpuCell(m: Measurement): string {
  const c = m.cpuPerRequestUs;
  return `${int(c.target)} / ${int(c.postgres)} / ${int(c.redis)} / ${int(c.all)}`;
}

function scenarioTable(rows: ScenarioResult[]): string[] {
  const lines = [
    '| connections | program | req/s | p50 ms | p99 ms | errors | non-2xx | service / baseline | CPU µs per request: Node / Postgres / Redis / whole machine | load avg, other work (cores) |',
    '| -: | - | -: | -: | -: | -: | -: | -: | -: | -: |',
  ];
  for (const row of rows) {
    for (const name of ['service', 'baseline'] as const) {
      const m = row.results[name];
      if (!m) {
        lines.push(`| ${row.connections} | ${name} | failed: ${(row.failures[name] ?? 'not run').replace(/\|/g, '\\|').replace(/\n/g, ' ').slice(0, 200)} | | | | | | | |`);
        continue;
      }
      const ratioCell = name === 'service' ? `**${pct(ratio(row))}** req/s, p99 ${Number.isFinite(p99Ratio(row)) ? p99Ratio(row).toFixed(2) : '–'}x` : '';
      lines.push(
        `| ${row.connections} | ${name} | ${int(m.requestsPerSec)} | ${ms(m.latencyMs.p50)} | ${ms(m.latencyMs.p99)} | ${errorCount(m)} | ${m.non2xx} | ${ratioCell} | ${cpuCell(m)} | ${m.cpu.loadAverage1m.toFixed(2)}, ${otherCores(m).toFixed(2)} |`,
      );
    }
  }
  return lines;
}

function automationSection(r: BenchResults): string[] {
  const a = r.automation;
  if (!a) return ['## Automation throughput', '', `Not measured${r.automationFailure ? `: ${r.automationFailure}` : ''}.`, ''];
  const states = Object.entries(a.runStates).map(([s, n]) => `${s} ${int(n)}`).join(', ');
  return [
    '## Automation throughput',
    '',
    `One API process (ROLE=api) and one worker process (ROLE=worker, WORKER_CONCURRENCY=${a.workerConcurrency}); cases created through the webhook at a steady ${a.offeredRate} cases/s for ${a.durationSec} s ` +
      'on a workflow whose Open run is `set_attributes` + `set_status Triage` and whose Triage run is `close` (three steps, two runs per case). ' +
      'A "chain" is one case through all three steps (both runs succeeded, case Closed); the lag is from the case\'s creation to its last run finishing (`workflow_runs.finished_at`). ' +
      'Runs cannot finish faster than cases arrive, so the rate offered is set above the 500/s target: at exactly 500/s the count while intake runs comes out just under 500 even when the worker keeps up.',
    '',
    '| measure | value |',
    '| - | -: |',
    `| cases created (2xx) / offered | ${int(a.intake.ok)} / ${int(a.offeredRate * a.durationSec)} (intake errors ${errorCount(a.intake)}, non-2xx ${a.intake.non2xx}) |`,
    `| intake latency p50 / p99 | ${ms(a.intake.latencyMs.p50)} / ${ms(a.intake.latencyMs.p99)} ms |`,
    `| chains completed per second while intake ran | ${a.sustainedChainsPerSec.toFixed(0)} |`,
    `| runs completed per second while intake ran | ${a.sustainedRunsPerSec.toFixed(0)} |`,
    `| chains / runs per second over the whole window (first case to last run, ${a.windowSec.toFixed(1)} s) | ${a.chainsPerSec.toFixed(0)} / ${a.runsPerSec.toFixed(0)} |`,
    `| lag p50 / p99 / max | ${ms(a.lagMs.p50)} / ${ms(a.lagMs.p99)} / ${ms(a.lagMs.max)} ms |`,
    `| largest backlog of unfinished runs (sampled every second) | ${int(a.maxBacklog)} |`,
    `| time to drain after intake stopped | ${a.drainSec.toFixed(1)} s |`,
    `| runs by state | ${states} |`,
    `| runs not succeeded / still unfinished at the end | ${int(a.runsNotSucceeded)} / ${int(a.unfinishedAtEnd)} |`,
    `| CPU: API process / worker process (during intake + drain for the worker) | ${(a.apiCpuMs / 1000).toFixed(1)} s / ${(a.workerCpuMs / 1000).toFixed(1)} s (worker: ${(a.workerCpuMs / 1000 / (a.durationSec + a.drainSec)).toFixed(2)} cores on average) |`,
    `| worker peak RSS | ${a.workerPeakRssMb === null ? 'unknown' : `${a.workerPeakRssMb.toFixed(0)} MB`} |`,
    '',
  ];
}

function growthSection(r: BenchResults): string[] {
  const lines = ['## How cost grows with the data (10k vs 1M cases)', ''];
  if (r.growth.length === 0) return [...lines, `Not measured${r.growthFailure ? `: ${r.growthFailure}` : ''}.`, ''];
  lines.push(
    `The cases table was emptied, then filled with SQL (\`generate_series\`, ~1 KB attributes, one timeline event per case, same organization and workflow, then \`VACUUM ANALYZE\`, and a wait until no autovacuum worker runs); ` +
      `webhook intake and GET (64 bulk cases spread over the table, in turn) were measured at 16 connections for ${r.config.growthDurationSec} s after a ${r.config.warmupSec} s warm-up, twice in a row; the table shows the faster of the two windows. ` +
      'Intake adds cases while it runs, so the table holds a little more than the size named.',
    '',
    '| cases | table + indexes | program | intake req/s | intake p50 ms | intake p99 ms | GET req/s | GET p50 ms | GET p99 ms | other work (cores), intake / GET |',
    '| -: | -: | - | -: | -: | -: | -: | -: | -: | -: |',
  );
  for (const step of r.growth) {
    for (const name of ['service', 'baseline'] as const) {
      const w = step.results[name]?.webhook;
      const g = step.results[name]?.get;
      lines.push(
        `| ${int(step.cases)} | ${int(step.tableMb)} MB | ${name} | ${int(w?.requestsPerSec ?? NaN)} | ${ms(w?.latencyMs.p50 ?? NaN)} | ${ms(w?.latencyMs.p99 ?? NaN)} | ` +
          `${int(g?.requestsPerSec ?? NaN)} | ${ms(g?.latencyMs.p50 ?? NaN)} | ${ms(g?.latencyMs.p99 ?? NaN)} | ` +
          `${w ? otherCores(w).toFixed(2) : '–'} / ${g ? otherCores(g).toFixed(2) : '–'} |`,
      );
    }
  }
  const failures = r.growth.flatMap((s) => s.failures);
  if (failures.length) lines.push('', ...failures.map((f) => `- failed: ${f}`));
  const last = r.growth[r.growth.length - 1]!;
  lines.push('', `Filling took ${r.growth.map((s) => `${s.insertSec.toFixed(0)} s (to ${int(s.cases)})`).join(', ')}. Plan of the GET row look-up at ${int(last.cases)} cases:`, '', '```', last.explainGet, '```', '');
  return lines;
}

export function renderMarkdown(r: BenchResults): string {
  const m = r.machine;
  const checks = evaluateTargets(r);
  const titles = new Map(r.scenarios.map((s) => [s.key, s.title]));
  const lines: string[] = [
    '# Benchmarks',
    '',
    `Written by \`npm run bench\` on ${m.date} (${(r.totalSec / 60).toFixed(1)} minutes). Ratios are the figures that count; absolute numbers vary between machines and between runs.`,
    '',
    '## Machine',
    '',
    '| | |',
    '| - | - |',
    `| CPU | ${m.cpuModel}, ${m.cores} cores |`,
    `| memory | ${m.memoryGb.toFixed(1)} GB |`,
    `| kernel | ${m.kernel} |`,
    `| Node | ${m.node} |`,
    `| Postgres | ${m.postgres} (${Object.entries(m.postgresSettings).map(([k, v]) => `${k}=${v}`).join(', ')}) |`,
    `| Redis | ${m.redis} |`,
    `| code measured | ${m.code} |`,
    `| load average at start (1, 5, 15 min) | ${m.loadAverageAtStart.map((v) => v.toFixed(2)).join(', ')} |`,
    '',
    'Everything runs on this one machine and shares its cores: the program under test, Postgres, Redis and the load generator (autocannon, in its own process).',
    '',
    interferenceNote(r),
    '',
    '## Targets of the issue',
    '',
    '| target | measured | result |',
    '| - | - | - |',
    ...checks.map((c) => `| ${c.target} | ${c.measured} | ${mark(c.pass)} |`),
    '',
    `## HTTP scenarios (${r.config.warmupSec} s warm-up, then ${r.config.durationSec} s measured)`,
    '',
    `- **service**: \`${['node', ...r.config.serviceNodeFlags, 'dist/main.js'].join(' ')}\` (\`start:prod\`) with \`ROLE=api\`, ` +
      '`LOG_LEVEL=warn`, pool 20, and the rate limits (`RATE_LIMIT_PER_ADDRESS`, `RATE_LIMIT_PER_CREDENTIAL`) raised to 10^9 per minute: the load comes from one address with one credential, so the default limits would answer 429, while raised limits still cost their per-request Redis calls. The target workflow has typed attributes and an Open automation, so every intake also writes the pending run record (no worker runs during these scenarios).',
    '- **baseline**: `bench/baseline/server.ts`, plain Fastify + pg (pool 20) + Bull on the same database: token look-up by hash, `BEGIN`; insert case; insert timeline event; `COMMIT`; `queue.add`; 201. No cache, no validation.',
    '- Bodies are ~2 KB tickets (nested objects, arrays, unicode, an integer beyond 2^53), 8 variants in turn. GET reads 64 existing cases (~2 KB attributes) in turn.',
    '- Latency percentiles are of the 2xx responses, from every response time autocannon reported. "errors" are connection errors and timeouts.',
    '- CPU µs per request = CPU time of the program (Node), of the Postgres backends of its pool, of redis-server, and of the whole machine, divided by the 2xx responses. "other work" is the machine CPU not explained by those and the load generator, in cores: other users of the machine (interference) plus Postgres background work.',
    '- Service and baseline alternate which one runs first; a `CHECKPOINT` precedes every run.',
    '',
  ];
  for (const key of ['webhook', 'post', 'get'] as const) {
    const rows = scenarioRows(r.scenarios, key);
    if (rows.length === 0) continue;
    lines.push(`### ${titles.get(key)}`, '', ...scenarioTable(rows), '');
  }
  lines.push(
    '## Memory',
    '',
    `Peak RSS (VmHWM) after the HTTP scenarios: service API process ${r.peakRssMb.service === null ? 'unknown' : `${r.peakRssMb.service.toFixed(0)} MB`}, ` +
      `baseline ${r.peakRssMb.baseline === null ? 'unknown' : `${r.peakRssMb.baseline.toFixed(0)} MB`}.`,
    '',
    ...automationSection(r),
    ...growthSection(r),
  );
  if (r.failures.length) lines.push('## Failures during this run', '', ...r.failures.map((f) => `- ${f.replace(/\n/g, ' ')}`), '');
  lines.push(
    '## How to reproduce',
    '',
    '```sh',
    'npm run bench',
    '# against existing servers (otherwise an embedded Postgres and a local redis-server are started):',
    'DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379 npm run bench',
    '# a quick smoke run:',
    'BENCH_DURATION=3 BENCH_WARMUP=1 BENCH_AUTOMATION_DURATION=10 BENCH_SKIP_1M=1 npm run bench',
    '```',
    '',
    'Settings (environment): `BENCH_DURATION` (measured seconds per run, 15), `BENCH_WARMUP` (5), `BENCH_AUTOMATION_RATE` (cases/s, 520: just above the 500 target, so the completion rate can show it), ' +
      '`BENCH_AUTOMATION_DURATION` (60), `BENCH_AUTOMATION_DRAIN` (longest wait for the runs to finish, 300), `BENCH_WORKER_CONCURRENCY` (16), ' +
      '`BENCH_GROWTH_DURATION` (10), `BENCH_SKIP_1M=1`, `BENCH_SCENARIOS` (which parts run, comma-separated: `http`, `automation`, `growth`; all by default), `BENCH_REPORT` (where to write this file), `BENCH_CPU_PROF` (a folder: the service, the worker and the baseline write `node --cpu-prof` profiles there when they stop). The run uses a fresh database `cis_bench_<id>` and Redis prefix, and drops both at the end.',
    '',
  );
  return lines.join('\n');
}

export function consoleSummary(r: BenchResults): string {
  const lines = ['', 'scenario                 conns   service req/s  baseline req/s  ratio   service p50/p99 ms   baseline p50/p99 ms  errors(s/b)'];
  for (const row of r.scenarios) {
    const s = row.results.service;
    const b = row.results.baseline;
    lines.push(
      `${row.key.padEnd(24)} ${String(row.connections).padStart(5)}   ${int(s?.requestsPerSec ?? NaN).padStart(13)}  ${int(b?.requestsPerSec ?? NaN).padStart(14)}  ${pct(ratio(row)).padStart(5)}   ` +
        `${`${ms(s?.latencyMs.p50 ?? NaN)}/${ms(s?.latencyMs.p99 ?? NaN)}`.padStart(18)}   ${`${ms(b?.latencyMs.p50 ?? NaN)}/${ms(b?.latencyMs.p99 ?? NaN)}`.padStart(18)}  ` +
        `${s ? errorCount(s) + s.non2xx : '–'}/${b ? errorCount(b) + b.non2xx : '–'}`,
    );
  }
  lines.push('', 'targets:');
  for (const c of evaluateTargets(r)) lines.push(`  ${mark(c.pass).padEnd(4)}  ${c.target}: ${c.measured}`);
  return lines.join('\n');
}

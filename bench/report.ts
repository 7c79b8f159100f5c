/**
 * Turns the results of a run into the console summary and `docs/benchmarks.md`: the machine,
 * the issue's targets with pass/fail, a table per HTTP scenario, then the sections of the later
 * parts (report-sections.ts). The report is written from REPORT_START on; what a report file
 * already holds above that line (figures measured since its last full run, what is open, where
 * the older logs are) is written by hand and kept.
 */
import type { TargetName } from './context.js';
import { type ScenarioKey, type ScenarioResult, spreadOf } from './http-scenarios.js';
import type { Measurement } from './load.js';
import { noisyChecks, noisySection } from './noisy-neighbour.js';
import { searchSection } from './search.js';
import { slaSweepSection } from './sla-sweep.js';
import { regressionSection } from './regression.js';
import { reportsChecks, reportsSection } from './reports.js';
import { bigBodiesSection, referenceChecks, pgbenchSection } from './report-references.js';
import {
  automationSection,
  budgetChecks,
  budgetSection,
  capacitySection,
  drainChecks,
  drainSection,
  growthChecks,
  growthSection,
  syncChecks,
  syncSection,
  verifiedWebhookChecks,
  verifiedWebhookSection,
} from './report-sections.js';
import { type BenchResults, errorCount, int, mark, ms, otherCores, pct, type TargetCheck, withSpread } from './results.js';

function scenarioRows(results: ScenarioResult[], key: ScenarioKey): ScenarioResult[] {
  return results.filter((r) => r.key === key);
}

/** The service's req/s over a reference program's, in one scenario row. */
function ratio(r: ScenarioResult, reference: TargetName = 'baseline'): number {
  const s = r.results.service;
  const b = r.results[reference];
  return s && b ? s.requestsPerSec / b.requestsPerSec : NaN;
}

function p99Ratio(r: ScenarioResult, reference: TargetName = 'baseline'): number {
  const s = r.results.service;
  const b = r.results[reference];
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
  checks.push(...verifiedWebhookChecks(r));
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
  checks.push(...drainChecks(r), ...budgetChecks(r), ...growthChecks(r.growth), ...syncChecks(r.sync), ...reportsChecks(r), ...referenceChecks(r, ratio, p99Ratio), ...noisyChecks(r));
  return checks;
}

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

/** A figure's median with the lowest and highest of its rounds. */
const PROGRAMS: TargetName[] = ['service', 'baseline', 'lean'];

function scenarioTable(rows: ScenarioResult[]): string[] {
  const lines = [
    '| connections | program | req/s | p50 ms | p99 ms | errors | non-2xx | service / reference | CPU µs per request: Node / Postgres / Redis / whole machine | load avg, other work (cores) |',
    '| -: | - | -: | -: | -: | -: | -: | -: | -: | -: |',
  ];
  for (const row of rows) {
    for (const name of PROGRAMS.filter((p) => row.results[p] || row.failures[p])) {
      const m = row.results[name];
      if (!m) {
        lines.push(`| ${row.connections} | ${name} | failed: ${(row.failures[name] ?? 'not run').replace(/\|/g, '\\|').replace(/\n/g, ' ').slice(0, 200)} | | | | | | | |`);
        continue;
      }
      const vs = (reference: TargetName) => `**${pct(ratio(row, reference))}** of ${reference} req/s, p99 ${Number.isFinite(p99Ratio(row, reference)) ? p99Ratio(row, reference).toFixed(2) : '–'}x`;
      const ratioCell = name === 'service' ? PROGRAMS.filter((p) => p !== 'service' && row.results[p]).map(vs).join('; ') : '';
      const rounds = row.rounds[name];
      lines.push(
        `| ${row.connections} | ${name} | ${withSpread(int(m.requestsPerSec), spreadOf(rounds, (x) => x.requestsPerSec), int)} | ${ms(m.latencyMs.p50)} | ` +
          `${withSpread(ms(m.latencyMs.p99), spreadOf(rounds, (x) => x.latencyMs.p99), ms)} | ${errorCount(m)} | ${m.non2xx} | ${ratioCell} | ${cpuCell(m)} | ${m.cpu.loadAverage1m.toFixed(2)}, ${otherCores(m).toFixed(2)} |`,
      );
    }
  }
  return lines;
}

/** The line a run writes its report from, so that a file's hand-written head above it survives the run. */
export const REPORT_START = '<!-- npm run bench writes this file from this line on and keeps what is above it (bench/report.ts). -->';

/** The report to write where `previous` was: its part above REPORT_START, then the new report's from that line on. */
export function keepingHead(previous: string | null, report: string): string {
  const at = previous?.indexOf(REPORT_START) ?? -1;
  if (!previous || at < 0) return report;
  return previous.slice(0, at) + report.slice(report.indexOf(REPORT_START));
}

export function renderMarkdown(r: BenchResults): string {
  const m = r.machine;
  const checks = evaluateTargets(r);
  const titles = new Map(r.scenarios.map((s) => [s.key, s.title]));
  const lines: string[] = [
    '# Benchmarks',
    '',
    REPORT_START,
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
    `## HTTP scenarios (${r.config.rounds} alternated rounds of ${r.config.warmupSec} s warm-up, then ${r.config.durationSec} s measured)`,
    '',
    `- **service**: \`${[...Object.entries(r.config.serviceProcessEnv).map(([name, value]) => `${name}=${value}`), 'node', ...r.config.serviceNodeFlags, 'dist/main.js'].join(' ')}\` (\`start:prod\`) with \`ROLE=api\`, ` +
      '`LOG_LEVEL=warn`, pool 20, and the rate limits (`RATE_LIMIT_PER_ADDRESS`, `RATE_LIMIT_PER_CREDENTIAL`) raised to 10^9 per minute: the load comes from one address with one credential, so the default limits would answer 429, while raised limits still cost their per-request Redis calls. The target workflow has typed attributes and an Open automation, so every intake also writes the pending run record (no worker runs during these scenarios).',
    '- **baseline**: `bench/baseline/server.ts`, plain Fastify + pg (pool 20) + Bull on the same database: token look-up by hash, `BEGIN`; insert case; insert timeline event; `COMMIT`; `queue.add`; 201. No cache, no validation.',
    '- **lean**: the same program with `BASELINE_SCHEMA=lean`, on tables of its own: a cases table with only its primary key, one token table, a timeline table (webhook intake only). It leaves out what the service\'s schema costs (indexes, the run record, the outbox probe), so it shows what the service\'s own code costs.',
    '- Bodies are ~2 KB tickets (nested objects, arrays, unicode, an integer beyond 2^53), 8 variants in turn. GET reads 64 existing cases (~2 KB attributes) in turn.',
    '- Latency percentiles are of the 2xx responses, from every response time autocannon reported. "errors" are connection errors and timeouts.',
    '- CPU µs per request = CPU time of the program (Node), of the Postgres backends of its pool, of redis-server, and of the whole machine, divided by the 2xx responses. "other work" is the machine CPU not explained by those and the load generator, in cores: other users of the machine (interference) plus Postgres background work.',
    '- Each figure is the median of the rounds, with the lowest and highest round in brackets; errors are added up over the rounds. Each round starts with the next program, so none always meets the warmer or the larger database; a `CHECKPOINT` precedes every run. A target passes on the median.',
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
      `baseline ${r.peakRssMb.baseline === null ? 'unknown' : `${r.peakRssMb.baseline.toFixed(0)} MB`}, ` +
      `lean baseline ${r.peakRssMb.lean === null ? 'unknown' : `${r.peakRssMb.lean.toFixed(0)} MB`}.`,
    '',
    ...pgbenchSection(r),
    ...bigBodiesSection(r),
    ...verifiedWebhookSection(r),
    ...automationSection(r),
    ...capacitySection(r),
    ...drainSection(r),
    ...budgetSection(r),
    ...growthSection(r),
    ...syncSection(r),
    ...reportsSection(r),
    ...noisySection(r),
    ...searchSection(r.search, r.searchFailure),
    ...slaSweepSection(r.slaSweep, r.slaSweepFailure),
    ...regressionSection(r),
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
    'BENCH_DURATION=3 BENCH_WARMUP=1 BENCH_AUTOMATION_DURATION=10 BENCH_DRAIN_CASES=2000 BENCH_DRAIN_STEADY=5 BENCH_SKIP_1M=1 npm run bench',
    '# only the noisy neighbour (tenant B alone and beside tenant A\'s noise):',
    'BENCH_SCENARIOS=noisy npm run bench',
    '```',
    '',
    'Settings (environment): `BENCH_DURATION` (measured seconds per run, 15), `BENCH_WARMUP` (5), `BENCH_ROUNDS` (alternated rounds per HTTP and pgbench figure, 3), `BENCH_AUTOMATION_RATE` (cases/s of the automation part, 820: just above issue 15\'s 800 target, so the completion rate can show it), ' +
      '`BENCH_STEADY_RATE` (cases/s of the drain and budget parts, 520), `BENCH_AUTOMATION_DURATION` (60), `BENCH_AUTOMATION_DRAIN` (longest wait for the runs to finish, 300), `BENCH_WORKER_CONCURRENCY` (the service\'s default), ' +
      '`BENCH_DRAIN_CASES` (cases that arrive while no worker runs, 100000), `BENCH_DRAIN_STEADY` (seconds of the steady window before, 30), `BENCH_DRAIN_MAX` (longest wait for the backlog to drain, 900), ' +
      '`BENCH_BUDGET_RETENTION_DAYS` (the shortened retention, decimal days, 0.0007), `BENCH_BUDGET_PURGE_INTERVAL_MS` (10000), `BENCH_BUDGET_BASELINE` (seconds without purges, 60), `BENCH_BUDGET_DURATION` (seconds with purges, 300), ' +
      '`BENCH_NOISY_RATE` (tenant B\'s steady webhooks per second in `noisy`, 250), `BENCH_NOISY_CASES` (cases of tenant A\'s listed workflow, 10000), `BENCH_GROWTH_DURATION` (10, also each window of `sync`), `BENCH_SKIP_1M=1` (growth and sync fill 10k cases only), `BENCH_SCENARIOS` (which parts run, comma-separated: `http`, `pgbench`, `bigbody`, `verified`, `automation`, `capacity` (needs `automation`), `drain`, `budget`, `growth`, `sync` (list and change-feed pages), `reports`, `noisy` (tenant B\'s steady webhooks alone and beside tenant A\'s noise), `search` (full-text search at `BENCH_SEARCH_CASES` cases, 1,000,000 by default, `BENCH_SEARCH_SAMPLES` first pages per query kind, 40), `sla` (the SLA sweep with `BENCH_SLA_CLOCKS` running clocks, 100,000, then `BENCH_SLA_DUE` more coming due over a minute, 5,000), `regression` (this checkout against `BENCH_REGRESSION_BASE`, default 45e99a2, built in a worktree: bench/regression.sh, runs set by `BENCH_REGRESSION_CONNECTIONS`, `_REPS`, `_DURATION`); all by default), `BENCH_HTTP_SCENARIOS` (which of `webhook`, `post`, `get` the `http` part runs; `get` reads the cases `post` made), `BENCH_NODE_FLAGS` (node flags for the service and worker instead of those of `start:prod`, to compare V8 settings), `BENCH_REPORT` (where to write this file), `BENCH_CPU_PROF` (a folder: the service, the worker and the baseline write `node --cpu-prof` profiles there when they stop). The run uses a fresh database `cis_bench_<id>` and Redis prefix, and drops both at the end.',
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

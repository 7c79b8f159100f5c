/**
 * The parts of docs/benchmarks.md that measure the service against outside references (issue
 * 15): the lean baseline and the database's own limit (pgbench) for webhook intake, GET against
 * the baseline, big bodies and the memory budget, and automation at 800 chains/s.
 */
import type { TargetName } from './context.js';
import type { ScenarioResult } from './http-scenarios.js';
import { type BenchResults, errorCount, int, ms, pct, type TargetCheck } from './results.js';

type Ratio = (row: ScenarioResult, reference: TargetName) => number;

const times = (v: number) => (Number.isFinite(v) ? `${v.toFixed(2)}x` : '–');

export function referenceChecks(r: BenchResults, ratio: Ratio, p99Ratio: Ratio): TargetCheck[] {
  const checks: TargetCheck[] = [];
  for (const row of r.scenarios.filter((s) => s.key === 'webhook')) {
    const s = row.results.service;
    const lean = row.results.lean;
    const vsLean = ratio(row, 'lean');
    checks.push({
      target: `Webhook intake at ${row.connections} connections: >= 1.2x the lean baseline's req/s (issue 15)`,
      measured: `${times(vsLean)} (${int(s?.requestsPerSec ?? NaN)} vs ${int(lean?.requestsPerSec ?? NaN)} req/s)`,
      pass: Number.isFinite(vsLean) ? vsLean >= 1.2 : false,
    });
    const p99VsLean = p99Ratio(row, 'lean');
    checks.push({
      target: `Webhook intake at ${row.connections} connections: p99 <= 1.5x the lean baseline's (issue 15)`,
      measured: `${times(p99VsLean)} (${ms(s?.latencyMs.p99 ?? NaN)} vs ${ms(lean?.latencyMs.p99 ?? NaN)} ms)`,
      pass: Number.isFinite(p99VsLean) ? p99VsLean <= 1.5 : false,
    });
    const limit = r.pgbench?.kind === 'measured' ? r.pgbench.results.find((p) => p.connections === row.connections) : undefined;
    const vsLimit = s && limit ? s.requestsPerSec / limit.tps : NaN;
    checks.push({
      target: `Webhook intake at ${row.connections} connections: >= 0.5x the database limit (pgbench, the intake statement) (issue 15)`,
      measured: limit ? `${times(vsLimit)} (${int(s?.requestsPerSec ?? NaN)} req/s vs ${int(limit.tps)} tps)` : r.pgbench?.kind === 'skipped' ? `not measured: ${r.pgbench.reason}` : 'not measured',
      pass: limit ? vsLimit >= 0.5 : null,
    });
  }
  for (const row of r.scenarios.filter((s) => s.key === 'get')) {
    const value = ratio(row, 'baseline');
    const p99 = p99Ratio(row, 'baseline');
    checks.push({
      target: `GET case at ${row.connections} connections: >= 1.0x the baseline's req/s with p99 <= 1.2x (issue 15)`,
      measured: `${times(value)} req/s, p99 ${times(p99)}`,
      pass: Number.isFinite(value) && Number.isFinite(p99) ? value >= 1 && p99 <= 1.2 : false,
    });
  }
  const a = r.automation;
  checks.push({
    target: 'Automation: >= 800 three-step chains/s sustained for 60 s with lag p99 < 1 s (issue 15)',
    measured: a ? `${a.sustainedChainsPerSec.toFixed(0)} chains/s at ${a.offeredRate}/s offered, lag p99 ${ms(a.lagMs.p99)} ms` : 'not measured',
    pass: a ? a.offeredRate >= 800 && a.sustainedChainsPerSec >= 800 && a.lagMs.p99 < 1000 : false,
  });
  const big = r.bigBodies;
  const peak = Math.max(r.peakRssMb.service ?? NaN, big?.peakRssMb ?? NaN);
  checks.push({
    target: 'Big bodies: 64 connections posting 1 MB bodies, zero errors (issue 15)',
    measured: big ? `${errorCount(big.measurement)} errors, ${big.measurement.non2xx} non-2xx of ${int(big.measurement.ok + big.measurement.non2xx)} requests` : `not measured${r.bigBodiesFailure ? `: ${r.bigBodiesFailure}` : ''}`,
    pass: big ? errorCount(big.measurement) === 0 && big.measurement.non2xx === 0 : false,
  });
  checks.push({
    target: 'API peak RSS <= 256 MB, the big bodies included (issue 15)',
    measured: Number.isFinite(peak) ? `${peak.toFixed(0)} MB` : 'unknown',
    pass: Number.isFinite(peak) ? peak <= 256 : null,
  });
  return checks;
}

export function pgbenchSection(r: BenchResults): string[] {
  const p = r.pgbench;
  const lines = ['## The database limit (pgbench)', ''];
  if (!p) return [...lines, `Not measured${r.pgbenchFailure ? `: ${r.pgbenchFailure}` : ''}.`, ''];
  if (p.kind === 'skipped') return [...lines, `Skipped: ${p.reason}.`, ''];
  lines.push(
    `\`${p.program} -n -M prepared -c <connections> -j <min(connections, cores)> -T ${r.config.durationSec}\` runs the service's intake statement ` +
      '(`CaseStatements.insert` in `cases/infrastructure/case-statements.ts`: the case, its creation event, its pending run and the outbox probe in one statement) with the parameters the service sends for a webhook case of the bench workflow. ' +
      'No HTTP, no Node, no Redis: the rate at which Postgres alone commits the statement on this machine.',
    '',
    '| connections | tps (median, lowest–highest) | mean latency ms |',
    '| -: | -: | -: |',
    ...p.results.map((x) => `| ${x.connections} | ${int(x.tps)} (${int(Math.min(...x.rounds.map((y) => y.tps)))}–${int(Math.max(...x.rounds.map((y) => y.tps)))}) | ${ms(x.latencyAvgMs)} |`),
    '',
  );
  return lines;
}

export function bigBodiesSection(r: BenchResults): string[] {
  const big = r.bigBodies;
  const lines = ['## Big bodies', ''];
  if (!big) return [...lines, `Not measured${r.bigBodiesFailure ? `: ${r.bigBodiesFailure}` : ''}.`, ''];
  const m = big.measurement;
  lines.push(
    `${big.connections} connections post webhook bodies of ${int(big.bodyBytes)} bytes (a ticket with ~1 MB of base64 notes, which Postgres cannot compress much) to the service for ${r.config.durationSec} s.`,
    '',
    '| req/s | MB/s in | p50 ms | p99 ms | errors | non-2xx | API peak RSS after |',
    '| -: | -: | -: | -: | -: | -: | -: |',
    `| ${int(m.requestsPerSec)} | ${int((m.requestsPerSec * big.bodyBytes) / 1e6)} | ${ms(m.latencyMs.p50)} | ${ms(m.latencyMs.p99)} | ${errorCount(m)} | ${m.non2xx} | ${big.peakRssMb === null ? 'unknown' : `${big.peakRssMb.toFixed(0)} MB`} |`,
    '',
    `Success rate ${pct(m.ok / Math.max(1, m.ok + m.non2xx + errorCount(m)))}.`,
    '',
  );
  return lines;
}

/**
 * Reporting: the report endpoint over a year of 1M cases, and what the rollup log adds to intake.
 *
 * A year of history for the intake workflow goes into the change log in bulk (1M cases created
 * across the four sources, 90% of them closed some minutes to days later, 1% of runs failing
 * with one of 30 messages), as the intake and change statements would have logged it; the
 * worker's fold (its SQL, run here to completion: the service under test has ROLE=api) moves it
 * into the rollups. The report for 365 days by day is then loaded like any endpoint.
 *
 * The intake cost is measured as POST cases with `"mode": "live"` against the same requests with
 * `"mode": "test"`: the only difference in what the statement writes is the log row (test cases
 * are never reported; the workflow has no subscription, so no outbox row either way).
 */
import { FOLD } from '../src/modules/reporting/infrastructure/report-rollups.sql.js';
import { type BenchContext, loadTarget } from './context.js';
import type { LoadRequest, Measurement } from './load.js';
import { bearer, rotated } from './http-scenarios.js';
import { createCaseBodies } from './payloads.js';
import { type BenchResults, errorCount, ms, pct, type TargetCheck } from './results.js';

export interface ReportsResult {
  cases: number;
  logSec: number;
  foldSec: number;
  rollupRows: number;
  report: Measurement;
  intake: { live: Measurement; test: Measurement };
}

const CASES = 1_000_000;
const BATCH = 100_000;
const FOLD_BATCH = 50_000;
const ROLLUPS = ['case_report_hours', 'case_report_days', 'case_close_times', 'case_error_messages'];

async function logYear(ctx: BenchContext, log: (line: string) => void): Promise<void> {
  const params = (first: number, last: number) => [ctx.fixtures.organizationId, ctx.fixtures.intake.id, first, last, CASES];
  const at = `now() - interval '365 days' + (g::float8 / $5) * interval '364 days'`;
  for (let first = 1; first <= CASES; first += BATCH) {
    const last = Math.min(CASES, first + BATCH - 1);
    await ctx.db.query(
      `INSERT INTO report_changes (organization_id, workflow_id, at, source, created, status_to)
       SELECT $1, $2, ${at}, (ARRAY['API', 'Webhook', 'Email', 'Form'])[1 + g % 4], 1, 'Open' FROM generate_series($3::int, $4::int) g`,
      params(first, last),
    );
    await ctx.db.query(
      `INSERT INTO report_changes (organization_id, workflow_id, at, source, closed, close_bucket, status_from)
       SELECT $1, $2, ${at} + (g % 3000) * interval '1 minute', (ARRAY['API', 'Webhook', 'Email', 'Form'])[1 + g % 4], 1, 48 + g % 100, 'Open'
       FROM generate_series($3::int, $4::int) g WHERE g % 10 <> 0`,
      params(first, last),
    );
    await ctx.db.query(
      `INSERT INTO report_changes (organization_id, workflow_id, at, source, errored, status_from, status_to, error)
       SELECT $1, $2, ${at} + interval '1 minute', (ARRAY['API', 'Webhook', 'Email', 'Form'])[1 + g % 4], 1, 'Open', 'Error',
              'http_request: POST crm.example answered ' || (500 + g % 30) || ' (after 3 retries)'
       FROM generate_series($3::int, $4::int) g WHERE g % 100 = 0`,
      params(first, last),
    );
    log(`    ${last.toLocaleString('en-US')} cases logged`);
  }
}

async function foldAll(ctx: BenchContext): Promise<void> {
  for (;;) {
    const { rows } = await ctx.db.query<{ folded: number }>(FOLD.text, [FOLD_BATCH]);
    if (rows[0]!.folded === 0) return;
  }
}

/** The window with the most requests per second: noise only ever slows a window down. */
const fastest = (windows: Measurement[]) => windows.reduce((a, b) => (b.requestsPerSec > a.requestsPerSec ? b : a));

/** The better of two windows. */
async function best(ctx: BenchContext, requests: LoadRequest[], status: number, durationSec: number): Promise<Measurement> {
  const windows: Measurement[] = [];
  for (let i = 0; i < 2; i++) windows.push(await loadTarget(ctx, ctx.targets.service, requests, status, 16, durationSec));
  return fastest(windows);
}

export async function runReports(ctx: BenchContext, log: (line: string) => void): Promise<ReportsResult> {
  log(`  logging a year of ${CASES.toLocaleString('en-US')} cases`);
  let started = Date.now();
  await logYear(ctx, log);
  const logSec = (Date.now() - started) / 1000;
  started = Date.now();
  await foldAll(ctx);
  const foldSec = (Date.now() - started) / 1000;
  await ctx.db.query(`VACUUM ANALYZE ${ROLLUPS.join(', ')}, case_open_counts, report_changes`);
  const { rows } = await ctx.db.query<{ n: string }>(`SELECT ${ROLLUPS.map((table) => `(SELECT count(*) FROM ${table})`).join(' + ')} AS n`);
  const rollupRows = Number(rows[0]!.n);
  log(`  folded in ${foldSec.toFixed(1)} s into ${rollupRows.toLocaleString('en-US')} rollup rows`);

  const to = new Date(Math.ceil(Date.now() / 3_600_000) * 3_600_000);
  const from = new Date(to.getTime() - 365 * 86_400_000);
  const reportPath = `/api/admin/v1/reports/cases?from=${from.toISOString()}&to=${to.toISOString()}&interval=day&workflow_id=${ctx.fixtures.intake.id}`;
  const report = await best(ctx, [{ method: 'GET', path: reportPath, headers: { authorization: `Bearer ${ctx.fixtures.adminToken}` } }], 200, ctx.config.growthDurationSec);
  log(`  report, 365 days by day: ${report.requestsPerSec.toFixed(0)} req/s  p50 ${ms(report.latencyMs.p50)} ms  p99 ${ms(report.latencyMs.p99)} ms`);

  const post = (mode: 'live' | 'test'): LoadRequest[] =>
    createCaseBodies().map((body) => ({ method: 'POST', path: ctx.fixtures.intake.casesPath, headers: { 'content-type': 'application/json', ...bearer(ctx) }, body: `{"mode":"${mode}",${body.slice(1)}` }));
  // In turn, twice each, so neither mode always meets the warmer or the larger table.
  const live: Measurement[] = [];
  const test: Measurement[] = [];
  for (let round = 0; round < 2; round++) {
    for (const [mode, into] of rotated([['live', live], ['test', test]] as ['live' | 'test', Measurement[]][], round)) {
      into.push(await loadTarget(ctx, ctx.targets.service, post(mode), 201, 16, ctx.config.durationSec));
    }
  }
  const intake = { live: fastest(live), test: fastest(test) };
  log(`  POST cases live ${intake.live.requestsPerSec.toFixed(0)} req/s vs test ${intake.test.requestsPerSec.toFixed(0)} req/s`);
  return { cases: CASES, logSec, foldSec, rollupRows, report, intake };
}

/** Postgres CPU per request, in ms. */
const postgresPerRequest = (m: Measurement) => m.cpu.postgresMs / Math.max(1, m.ok);

export function reportsChecks(r: BenchResults): TargetCheck[] {
  const x = r.reports;
  if (!x) return [{ target: 'Reports', measured: `not measured${r.reportsFailure ? `: ${r.reportsFailure}` : ''}`, pass: r.config.scenarios.has('reports') ? false : null }];
  const slower = x.intake.test.requestsPerSec / x.intake.live.requestsPerSec - 1;
  return [
    {
      target: 'Reports: the report of 365 days over 1M cases, p99 < 100 ms',
      measured: `${ms(x.report.latencyMs.p99)} ms (p50 ${ms(x.report.latencyMs.p50)} ms, ${x.report.requestsPerSec.toFixed(0)} req/s at 16 connections)`,
      pass: x.report.latencyMs.p99 < 100 && errorCount(x.report) === 0 && x.report.non2xx === 0,
    },
    {
      target: 'Reports: the rollup log adds < 5% to intake (POST cases live vs test)',
      measured: `${pct(slower)} fewer requests/s (${x.intake.live.requestsPerSec.toFixed(0)} vs ${x.intake.test.requestsPerSec.toFixed(0)}); Postgres ${postgresPerRequest(x.intake.live).toFixed(3)} vs ${postgresPerRequest(x.intake.test).toFixed(3)} ms CPU per request`,
      pass: slower < 0.05,
    },
  ];
}

export function reportsSection(r: BenchResults): string[] {
  const x = r.reports;
  const title = '## Reports';
  if (!x) return [title, '', `Not measured${r.reportsFailure ? `: ${r.reportsFailure}` : ''}.`, ''];
  const row = (name: string, m: Measurement) => `| ${name} | ${m.requestsPerSec.toFixed(0)} | ${ms(m.latencyMs.p50)} / ${ms(m.latencyMs.p99)} / ${ms(m.latencyMs.max)} | ${postgresPerRequest(m).toFixed(3)} | ${errorCount(m)} / ${m.non2xx} |`;
  return [
    title,
    '',
    `A year of ${x.cases.toLocaleString('en-US')} cases logged in bulk in ${x.logSec.toFixed(0)} s and folded into ${x.rollupRows.toLocaleString('en-US')} rollup rows in ${x.foldSec.toFixed(1)} s (see bench/reports.ts). ` +
      'The report is `GET /api/admin/v1/reports/cases` for 365 days by day; intake is POST cases, live (logged for reports) against test (not logged), 16 connections.',
    '',
    '| request | req/s | p50 / p99 / max ms | Postgres CPU ms per request | errors / non-2xx |',
    '| - | -: | -: | -: | -: |',
    row('report, 365 days by day', x.report),
    row('POST cases, live', x.intake.live),
    row('POST cases, test', x.intake.test),
    '',
  ];
}

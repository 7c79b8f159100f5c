/**
 * The sections of docs/benchmarks.md about the parts after the HTTP scenarios: the verified
 * webhook, automation throughput, capacity figures, backlog drain, growth budget, cost growth,
 * list and change feed; and the targets they are checked against.
 */
import { type BudgetSample, totalBytes } from './budget.js';
import { bytesPerRow } from './capacity.js';
import type { Measurement } from './load.js';
import { type BenchResults, errorCount, int, ms, otherCores, pct, type TargetCheck, withSpread } from './results.js';
import { spreadOf } from './http-scenarios.js';
import { SYNC_KINDS, type SyncKind } from './sync.js';
import { verifiedRatio } from './verified-webhook.js';

/** The issue's acceptance: the signature check costs under 10% of the webhook's throughput. */
const VERIFIED_MIN_RATIO = 0.9;

export function verifiedWebhookChecks(r: BenchResults): TargetCheck[] {
  const v = r.verifiedWebhook;
  if (!v) return [{ target: `Verified webhook: >= ${pct(VERIFIED_MIN_RATIO)} of the plain webhook's req/s`, measured: `not measured${r.verifiedWebhookFailure ? `: ${r.verifiedWebhookFailure}` : ''}`, pass: null }];
  return v.rows.map((row) => {
    const value = verifiedRatio(row);
    const { plain, verified } = row.results;
    const clean = errorCount(verified) === 0 && verified.non2xx === 0;
    return {
      target: `Verified webhook (${v.scheme} signature) at ${row.connections} connections: >= ${pct(VERIFIED_MIN_RATIO)} of the plain webhook's req/s, zero errors`,
      measured: `${(value * 100).toFixed(1)}% (${int(verified.requestsPerSec)} vs ${int(plain.requestsPerSec)} req/s)${clean ? '' : ', with errors or non-2xx'}`,
      pass: Number.isFinite(value) ? value >= VERIFIED_MIN_RATIO && clean : false,
    };
  });
}

export function verifiedWebhookSection(r: BenchResults): string[] {
  const v = r.verifiedWebhook;
  const title = '## Verified webhook next to the plain one';
  if (!v) return [title, '', `Not measured${r.verifiedWebhookFailure ? `: ${r.verifiedWebhookFailure}` : ''}.`, ''];
  const lines = [
    title,
    '',
    'The webhook scenario\'s bodies posted to two twin workflows of the service (typed attributes, an Open run): the plain one, and one whose webhook requires a ' +
      `\`${v.scheme}\` signature (\`X-Hub-Signature-256\`, an HMAC-SHA256 of the exact body bytes, checked before the body is parsed). ` +
      'Each body\'s signature is computed once by the bench and replayed (the scheme has no timestamp); the service computes and compares the HMAC on every request. ' +
      `At each connection count the two ran in ${r.config.rounds} alternated rounds; each figure is the median of its rounds (lowest–highest in brackets).`,
    '',
    '| connections | webhook | req/s | p50 ms | p99 ms | errors / non-2xx | Node CPU µs per request | verified / plain |',
    '| -: | - | -: | -: | -: | -: | -: | -: |',
  ];
  for (const row of v.rows) {
    const { plain, verified } = row.results;
    for (const webhook of ['plain', 'verified'] as const) {
      const m = row.results[webhook];
      const rounds = row.rounds[webhook];
      const share = webhook === 'verified' ? `**${(verifiedRatio(row) * 100).toFixed(1)}%** req/s, Node CPU ${((verified.cpuPerRequestUs.target / plain.cpuPerRequestUs.target - 1) * 100).toFixed(1)}% more` : '';
      lines.push(
        `| ${row.connections} | ${webhook} | ${withSpread(int(m.requestsPerSec), spreadOf(rounds, (x) => x.requestsPerSec), int)} | ${ms(m.latencyMs.p50)} | ` +
          `${withSpread(ms(m.latencyMs.p99), spreadOf(rounds, (x) => x.latencyMs.p99), ms)} | ${errorCount(m)} / ${m.non2xx} | ${int(m.cpuPerRequestUs.target)} | ${share} |`,
      );
    }
  }
  lines.push('');
  return lines;
}

export function growthChecks(growth: BenchResults['growth']): TargetCheck[] {
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

export function automationSection(r: BenchResults): string[] {
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

export function growthSection(r: BenchResults): string[] {
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

/** The issue's backlog-drain target: drains at no less than steady-state capacity, intake p99 within 1.5x of normal. */
export function drainChecks(r: BenchResults): TargetCheck[] {
  const d = r.drain;
  if (!d) return [{ target: 'Backlog drain', measured: `not measured${r.drainFailure ? `: ${r.drainFailure}` : ''}`, pass: r.config.scenarios.has('drain') ? false : null }];
  const p99Ratio = d.drain.intake.latencyMs.p99 / d.steady.intake.latencyMs.p99;
  return [
    {
      target: `Backlog drain (${int(d.backlog.cases)} cases waiting): drains at >= the steady-state capacity`,
      measured: d.drain.drained
        ? `${int(d.drain.runsPerSec)} runs/s while draining vs ${int(d.steady.runsPerSec)} runs/s steady (drained in ${d.drain.seconds.toFixed(1)} s)`
        : `not drained within ${r.config.drainMaxSec} s`,
      pass: d.drain.drained && d.drain.runsPerSec >= d.steady.runsPerSec,
    },
    {
      target: 'Backlog drain: intake p99 during the drain <= 1.5x normal',
      measured: `${Number.isFinite(p99Ratio) ? p99Ratio.toFixed(2) : '–'}x (${ms(d.drain.intake.latencyMs.p99)} vs ${ms(d.steady.intake.latencyMs.p99)} ms)`,
      pass: Number.isFinite(p99Ratio) ? p99Ratio <= 1.5 && errorCount(d.drain.intake) === 0 && d.drain.intake.non2xx === 0 : false,
    },
  ];
}

export function drainSection(r: BenchResults): string[] {
  const d = r.drain;
  const title = '## Backlog drain';
  if (!d) return [title, '', `Not measured${r.drainFailure ? `: ${r.drainFailure}` : ''}.`, ''];
  const intakeRow = (phase: string, m: Measurement) =>
    `| ${phase} | ${int(m.ok)} | ${ms(m.latencyMs.p50)} / ${ms(m.latencyMs.p99)} / ${ms(m.latencyMs.max)} | ${errorCount(m)} / ${m.non2xx} |`;
  return [
    title,
    '',
    `The automation workflow's webhook at a steady ${d.offeredRate} cases/s throughout, in three phases: ` +
      `(1) steady, ${r.config.drainSteadySec} s with one worker process (WORKER_CONCURRENCY=${d.workerConcurrency}) running: the normal intake latency and the steady-state capacity (runs finished per second while cases arrive); ` +
      `(2) backlog, the worker stopped while ${int(r.config.drainCases)} cases are offered; ` +
      '(3) drain, a worker started while intake goes on, until every backlog case is Closed (or parked in Error). ' +
      'The drain rate counts every run finished from the first one after the worker started to the last backlog case settling, the new arrivals\' runs included.',
    '',
    '| phase | cases created | intake p50 / p99 / max ms | errors / non-2xx |',
    '| - | -: | -: | -: |',
    intakeRow('steady (worker running)', d.steady.intake),
    intakeRow('backlog (no worker)', d.backlog.intake),
    intakeRow('drain (worker started, intake goes on)', d.drain.intake),
    '',
    '| measure | value |',
    '| - | -: |',
    `| backlog when the worker started | ${int(d.backlog.cases)} cases, ${int(d.backlog.unfinishedRuns)} unfinished runs |`,
    `| steady-state capacity | ${int(d.steady.runsPerSec)} runs/s |`,
    `| drain rate | ${int(d.drain.runsPerSec)} runs/s (${int(d.drain.chainsPerSec)} chains/s) |`,
    `| time to drain | ${d.drain.drained ? `${d.drain.seconds.toFixed(1)} s` : `not drained within ${r.config.drainMaxSec} s`} |`,
    `| runs not succeeded | ${int(d.runsNotSucceeded)} |`,
    '',
  ];
}

const mb = (bytes: number) => (Number.isFinite(bytes) ? (bytes / 1024 ** 2).toFixed(1) : '–');

export function capacitySection(r: BenchResults): string[] {
  const c = r.capacity;
  const title = '## Capacity figures';
  if (!c) return [title, '', `Not measured${r.capacityFailure ? `: ${r.capacityFailure}` : ''}.`, ''];
  return [
    title,
    '',
    `Read after the automation part from the tables that grow with the cases. Bytes are \`pg_total_relation_size\` (table + indexes + TOAST, as the files stand, free space inside them included) divided by the table's rows; ` +
      `rows per case are what the automation workflow's ${int(c.sampleCases)} settled cases left (two runs, no subscription, no Idempotency-Key: a table they left no row in shows 0).`,
    '',
    '| table | rows | total MB | of it indexes MB | bytes per row | rows per case |',
    '| - | -: | -: | -: | -: | -: |',
    ...c.tables.map((t) => `| ${t.table} | ${int(t.rows)} | ${mb(t.bytes)} | ${mb(t.indexBytes)} | ${int(bytesPerRow(t))} | ${t.rowsPerCase.toFixed(2)} |`),
    '',
    `Per automated case: **${int(c.bytesPerCase)} bytes**, so **${((c.bytesPerCase * 1e6) / 1024 ** 3).toFixed(1)} GiB of Postgres per million such cases** (before retention purges their runs).`,
    '',
    'CPU, in cores busy per 1,000 per second (milliseconds of CPU per item), from the automation part (intake and runs at the same time):',
    '',
    '| | cores |',
    '| - | -: |',
    `| API process per 1,000 intakes/s | ${c.cores.apiPer1000Intakes.toFixed(2)} |`,
    `| Postgres backends of the service (API and worker) per 1,000 cases/s, while intake ran | ${c.cores.postgresPer1000Cases.toFixed(2)} |`,
    `| Redis per 1,000 cases/s | ${c.cores.redisPer1000Cases.toFixed(2)} |`,
    `| worker process per 1,000 chains/s (two runs, three steps each chain) | ${c.cores.workerPer1000Chains.toFixed(2)} |`,
    '',
  ];
}

/** The sample at or after `atSec` (the last one when none is). */
const sampleAt = (samples: BudgetSample[], atSec: number) => samples.find((s) => s.atSec >= atSec) ?? samples[samples.length - 1]!;

/** The issue's growth budget: sizes level off, intake p99 during purges within 10% of p99 without them. */
export function budgetChecks(r: BenchResults): TargetCheck[] {
  const b = r.budget;
  if (!b) return [{ target: 'Growth budget', measured: `not measured${r.budgetFailure ? `: ${r.budgetFailure}` : ''}`, pass: r.config.scenarios.has('budget') ? false : null }];
  const last = b.samples[b.samples.length - 1]!;
  const half = sampleAt(b.samples, last.atSec / 2);
  const growth = totalBytes(last) / totalBytes(half) - 1;
  const p99Ratio = b.withPurges.latencyMs.p99 / b.withoutPurges.latencyMs.p99;
  const purged = b.purgedRows !== null && b.purgedRows > 0;
  return [
    {
      target: 'Growth budget: with retention shortened, table and index sizes level off (the second half grows <= 10%)',
      measured: `${pct(growth)} over the second half (${mb(totalBytes(half))} MB at ${half.atSec.toFixed(0)} s, ${mb(totalBytes(last))} MB at ${last.atSec.toFixed(0)} s); ${b.purgedRows === null ? 'the worker counts no purged rows' : `${int(b.purgedRows)} rows purged`}`,
      pass: purged && growth <= 0.1,
    },
    {
      target: 'Growth budget: intake p99 during purges within 10% of p99 without them',
      measured: `${Number.isFinite(p99Ratio) ? p99Ratio.toFixed(2) : '–'}x (${ms(b.withPurges.latencyMs.p99)} vs ${ms(b.withoutPurges.latencyMs.p99)} ms)${purged ? '' : '; no purge ran'}`,
      pass: purged && Number.isFinite(p99Ratio) && p99Ratio <= 1.1 && errorCount(b.withPurges) === 0 && b.withPurges.non2xx === 0,
    },
  ];
}

const BUDGET_ROWS = 12;

export function budgetSection(r: BenchResults): string[] {
  const b = r.budget;
  const title = '## Growth budget';
  if (!b) return [title, '', `Not measured${r.budgetFailure ? `: ${r.budgetFailure}` : ''}.`, ''];
  const tables = Object.keys(b.samples[0]!.bytes);
  const every = Math.max(1, Math.ceil(b.samples.length / BUDGET_ROWS));
  const shown = b.samples.filter((_, i) => i % every === 0 || i === b.samples.length - 1);
  return [
    title,
    '',
    `The automation workflow's webhook at a steady ${r.config.steadyRate} cases/s with one worker process: first for ${r.config.budgetBaselineSec} s with the default retention (nothing is old enough to purge), ` +
      `then for ${r.config.budgetDurationSec} s with a worker whose retention of runs, deliveries and closed cases is ${r.config.budgetRetentionDays} days (${(r.config.budgetRetentionDays * 86_400).toFixed(0)} s) ` +
      `and which purges every ${r.config.budgetPurgeIntervalMs / 1000} s. The sizes (MB, table + indexes + TOAST) were sampled at every purge interval. ` +
      `Before both, a worker with the shortened retention purged, without intake, what the earlier parts left (${b.caughtUpRows === null ? 'nothing counted' : `${int(b.caughtUpRows)} rows`}), so the window measures the steady purge, not a one-off catch-up.`,
    '',
    `| intake | cases created | p50 / p99 / max ms | errors / non-2xx |`,
    '| - | -: | -: | -: |',
    ...([['without purges', b.withoutPurges], ['with purges', b.withPurges]] as const).map(
      ([name, m]) => `| ${name} | ${int(m.ok)} | ${ms(m.latencyMs.p50)} / ${ms(m.latencyMs.p99)} / ${ms(m.latencyMs.max)} | ${errorCount(m)} / ${m.non2xx} |`,
    ),
    '',
    `| s | ${tables.join(' | ')} | total |`,
    `| -: | ${tables.map(() => '-:').join(' | ')} | -: |`,
    ...shown.map((s) => `| ${s.atSec.toFixed(0)} | ${tables.map((t) => mb(s.bytes[t] ?? NaN)).join(' | ')} | ${mb(totalBytes(s))} |`),
    '',
    `Rows purged (the worker's \`purged_rows_total\`): ${b.purgedRows === null ? 'none counted' : int(b.purgedRows)}.`,
    '',
  ];
}

/** List and change-feed pages: p99 at 1M cases within 20% of 10k (a page walks an index from its cursor). */
export function syncChecks(sync: BenchResults['sync']): TargetCheck[] {
  const small = sync.find((s) => s.cases < 100_000);
  const large = sync.find((s) => s.cases >= 1_000_000);
  if (!small || !large) return [{ target: 'List and change-feed page p99 with 1M cases within 20% of 10k', measured: 'not measured (BENCH_SKIP_1M=1, left out or failed)', pass: null }];
  return (Object.keys(SYNC_KINDS) as SyncKind[]).map((kind) => {
    const a = small.results[kind];
    const b = large.results[kind];
    const ratio = a && b ? b.latencyMs.p99 / a.latencyMs.p99 : NaN;
    return {
      target: `${SYNC_KINDS[kind]}: p99 with 1M cases within 20% of 10k`,
      measured: `${ms(b?.latencyMs.p99 ?? NaN)} ms vs ${ms(a?.latencyMs.p99 ?? NaN)} ms`,
      pass: Number.isFinite(ratio) ? ratio <= 1.2 : false,
    };
  });
}

export function syncSection(r: BenchResults): string[] {
  const lines = ['## Listing and following cases (10k vs 1M cases)', ''];
  if (r.sync.length === 0) return [...lines, `Not measured${r.syncFailure ? `: ${r.syncFailure}` : ''}.`, ''];
  lines.push(
    `The cases table was emptied and filled as for cost growth; then each kind of page of the cases API was loaded at 16 connections for ${r.config.growthDurationSec} s after a ${r.config.warmupSec} s warm-up, ` +
      'deep list pages and feed pages from 64 cursors at positions sampled over the whole table.',
    '',
    '| cases | page | pages/s | p50 ms | p99 ms | errors | other work (cores) |',
    '| -: | - | -: | -: | -: | -: | -: |',
  );
  for (const step of r.sync) {
    for (const kind of Object.keys(SYNC_KINDS) as SyncKind[]) {
      const m = step.results[kind];
      lines.push(`| ${int(step.cases)} | ${SYNC_KINDS[kind]} | ${int(m?.requestsPerSec ?? NaN)} | ${ms(m?.latencyMs.p50 ?? NaN)} | ${ms(m?.latencyMs.p99 ?? NaN)} | ${m ? errorCount(m) : '–'} | ${m ? otherCores(m).toFixed(2) : '–'} |`);
    }
  }
  const failures = r.sync.flatMap((s) => s.failures);
  if (failures.length) lines.push('', ...failures.map((f) => `- failed: ${f}`));
  const last = r.sync[r.sync.length - 1]!;
  lines.push('', `Filling took ${r.sync.map((s) => `${s.fillSec.toFixed(0)} s (to ${int(s.cases)})`).join(', ')}. Plans at ${int(last.cases)} cases:`, '', '```', last.plans, '```', '');
  return lines;
}

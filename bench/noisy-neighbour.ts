/**
 * Noisy neighbour (issue 16): tenant B (the bench's organization) sends webhooks at a steady rate
 * (BENCH_NOISY_RATE), first alone, then while tenant A (bench/noisy-tenant.ts) runs the costliest
 * list filters, a mail flood with trickling DATA and trickling form posts. Each of BENCH_ROUNDS
 * rounds measures both, in turn (each round starts with the other one); A's noise starts before
 * B's warm-up and is stopped, every one of its connections cut, when B's measured run ends. B's
 * figures are the medians of the rounds (medianOf); its errors, timeouts and non-2xx answers are
 * added up over the rounds. The target: B's p99 with A's noise within 1.5x of its p99 alone, and
 * not one error for B.
 */
import { MAX_ATTRIBUTE_FILTER_ITEMS } from '../src/modules/cases/http/list-cases.request.js';
import { serviceCpuWatch } from './automation.js';
import { type BenchContext, probe, warmThenMeasure } from './context.js';
import { medianOf, rotated, spreadOf, webhookRequests } from './http-scenarios.js';
import type { LoadSpec, Measurement } from './load.js';
import { NOISE, type NoiseOutcome, type Outcomes, setUpNoisyTenant, startNoise } from './noisy-tenant.js';
import { type BenchResults, errorCount, int, ms, type TargetCheck, withSpread } from './results.js';

/** Enough that B's rate holds while each answer takes ten times as long as alone (a connection waits for its answer). */
const CONNECTIONS = 64;
/** The issue's target: B's p99 with A's noise at most this many times its p99 alone. */
const MAX_P99_RATIO = 1.5;

const PHASES = ['alone', 'noisy'] as const;
type Phase = (typeof PHASES)[number];

export interface NoisyResult {
  rate: number;
  cases: number;
  filterChars: number;
  /** B's webhooks, the median of the rounds, and every round in the order they ran. */
  results: Record<Phase, Measurement>;
  rounds: Record<Phase, Measurement[]>;
  /** What A got, over all rounds. */
  noise: NoiseOutcome;
}

/** Adds one round's counts of A's outcomes to the totals. */
function addOutcomes(total: NoiseOutcome, round: NoiseOutcome): void {
  for (const key of ['list', 'mail', 'mailTrickles', 'formTrickles'] as const) {
    for (const [outcome, n] of Object.entries(round[key])) total[key][outcome] = (total[key][outcome] ?? 0) + n;
  }
  total.longestTrickleSec.mail = Math.max(total.longestTrickleSec.mail, round.longestTrickleSec.mail);
  total.longestTrickleSec.form = Math.max(total.longestTrickleSec.form, round.longestTrickleSec.form);
  total.queriesLeftRunning += round.queriesLeftRunning;
}

const describe = (outcomes: Outcomes) =>
  Object.entries(outcomes)
    .sort(([, a], [, b]) => b - a)
    .map(([outcome, n]) => `${outcome}: ${int(n)}`)
    .join(', ') || 'none';

export async function runNoisyNeighbour(ctx: BenchContext, log: (line: string) => void): Promise<NoisyResult> {
  const { config } = ctx;
  log(`  tenant A: ${config.noisyCases.toLocaleString('en-US')} cases storing ${NOISE.storedTags}-element arrays, an inbound address, a form`);
  const tenant = await setUpNoisyTenant(ctx, config.noisyCases);
  const requests = webhookRequests(ctx);
  await probe(ctx.targets.service.url, requests[0]!, 201);
  const spec: LoadSpec = { url: ctx.targets.service.url, connections: CONNECTIONS, durationSec: config.durationSec, overallRate: config.noisyRate, requests };
  const rounds: Record<Phase, Measurement[]> = { alone: [], noisy: [] };
  const noise: NoiseOutcome = { list: {}, mail: {}, mailTrickles: {}, formTrickles: {}, longestTrickleSec: { mail: 0, form: 0 }, queriesLeftRunning: 0 };
  for (let round = 0; round < config.rounds; round++) {
    for (const phase of rotated(PHASES, round)) {
      const attack = phase === 'noisy' ? startNoise(ctx, tenant) : undefined;
      let m: Measurement;
      try {
        m = await warmThenMeasure(ctx, spec, serviceCpuWatch(ctx));
      } finally {
        if (attack) addOutcomes(noise, await attack.stop());
      }
      rounds[phase].push(m);
      log(
        `  B ${phase.padEnd(5)} round ${round + 1} ${m.requestsPerSec.toFixed(0).padStart(5)} req/s  p50 ${ms(m.latencyMs.p50)} ms  p99 ${ms(m.latencyMs.p99)} ms  ` +
          `errors ${errorCount(m)}  non2xx ${m.non2xx}  machine ${(m.cpu.machineBusyMs / m.cpu.wallMs).toFixed(2)} cores busy`,
      );
    }
  }
  log(`  A's list filters: ${describe(noise.list)}; queries left running (cancelled): ${noise.queriesLeftRunning}`);
  log(`  A's mail flood: ${describe(noise.mail)}; trickled DATA: ${describe(noise.mailTrickles)} (longest held ${noise.longestTrickleSec.mail.toFixed(1)} s)`);
  log(`  A's trickled form posts: ${describe(noise.formTrickles)} (longest held ${noise.longestTrickleSec.form.toFixed(1)} s)`);
  return {
    rate: config.noisyRate,
    cases: config.noisyCases,
    filterChars: tenant.filter.length,
    results: { alone: medianOf(rounds.alone), noisy: medianOf(rounds.noisy) },
    rounds,
    noise,
  };
}

const p99Ratio = (x: NoisyResult) => x.results.noisy.latencyMs.p99 / x.results.alone.latencyMs.p99;
const failedRequests = (m: Measurement) => errorCount(m) + m.non2xx;

export function noisyChecks(r: BenchResults): TargetCheck[] {
  const x = r.noisy;
  const target = `Noisy neighbour: tenant B's webhook p99 with tenant A's noise <= ${MAX_P99_RATIO}x its p99 alone, zero errors for B (issue 16)`;
  if (!x) return [{ target, measured: `not measured${r.noisyFailure ? `: ${r.noisyFailure}` : ''}`, pass: r.config.scenarios.has('noisy') ? false : null }];
  const ratio = p99Ratio(x);
  const failed = failedRequests(x.results.alone) + failedRequests(x.results.noisy);
  return [
    {
      target,
      measured: `${Number.isFinite(ratio) ? ratio.toFixed(2) : '–'}x (${ms(x.results.noisy.latencyMs.p99)} vs ${ms(x.results.alone.latencyMs.p99)} ms); B's errors, timeouts and non-2xx: ${failed}`,
      pass: Number.isFinite(ratio) && ratio <= MAX_P99_RATIO && failed === 0,
    },
  ];
}

export function noisySection(r: BenchResults): string[] {
  const x = r.noisy;
  const title = '## Noisy neighbour';
  if (!x) return [title, '', `Not measured${r.noisyFailure ? `: ${r.noisyFailure}` : ''}.`, ''];
  const row = (phase: Phase) => {
    const m = x.results[phase];
    const rounds = x.rounds[phase];
    return (
      `| ${phase === 'alone' ? 'alone' : 'with A\'s noise'} | ${int(m.requestsPerSec)} of ${int(x.rate)} | ${ms(m.latencyMs.p50)} | ${withSpread(ms(m.latencyMs.p99), spreadOf(rounds, (v) => v.latencyMs.p99), ms)} | ` +
      `${ms(m.latencyMs.max)} | ${errorCount(m)} / ${m.non2xx} | ${(m.cpu.machineBusyMs / m.cpu.wallMs).toFixed(2)} |`
    );
  };
  return [
    title,
    '',
    `Tenant B (the bench's organization) sends the webhook scenario's 2 KB tickets at a steady ${x.rate} req/s over ${CONNECTIONS} connections from 127.0.0.1, first alone, then while tenant A, ` +
      'another organization with only its own tokens, inbound address and form URL, sends from 127.0.0.2 (bench/noisy-tenant.ts): ' +
      `${NOISE.listClients} clients listing its workflow of ${int(x.cases)} cases, each storing a ${NOISE.storedTags}-element array, with the costliest \`attributes\` filter the cases API takes (${MAX_ATTRIBUTE_FILTER_ITEMS} array items, ${int(x.filterChars)} characters: the array's last element again and again, then one it lacks), one request per ${NOISE.listPaceMs} ms at most each; ` +
      `${NOISE.mailFlooders} SMTP connections sending a message to A's address every ${NOISE.mailPaceMs} ms at most (each after ${NOISE.refusedRecipients} refused recipients, ${NOISE.attachments} attachments with ${int(NOISE.attachmentNameChars)}-character names) and ${NOISE.mailTricklers} sending DATA a byte every ${NOISE.trickleEveryMs} ms; ` +
      `${NOISE.formTricklers} connections posting to A's form with a declared body of ${int(NOISE.formDeclaredBytes)} bytes (after a 413, the most a form takes) sent ${NOISE.formChunkBytes} bytes every ${NOISE.trickleEveryMs} ms. ` +
      `A connection refused or closed opens again after ${NOISE.reconnectPauseMs} ms. A's noise starts before B's warm-up and stops, every connection cut, when B's measured run ends; list queries Postgres still runs for A then are counted and cancelled. ` +
      `${r.config.rounds === 1 ? 'One round' : `${r.config.rounds} rounds`} of ${r.config.warmupSec} s warm-up and ${r.config.durationSec} s measured, alone and noisy in turn; B's figures are medians of the rounds (lowest–highest p99 in brackets), errors and non-2xx added up.`,
    '',
    '| tenant B | req/s answered of offered | p50 ms | p99 ms | max ms | errors / non-2xx | machine busy (cores) |',
    '| - | -: | -: | -: | -: | -: | -: |',
    row('alone'),
    row('noisy'),
    '',
    `B's p99 with A's noise: **${p99Ratio(x).toFixed(2)}x** its p99 alone (target <= ${MAX_P99_RATIO}x, and zero errors for B).`,
    '',
    'What A got, over all rounds:',
    '',
    '| A\'s traffic | outcomes |',
    '| - | - |',
    `| list filters | ${describe(x.noise.list)}; queries Postgres still ran when the noise stopped: ${x.noise.queriesLeftRunning} |`,
    `| mail flood | ${describe(x.noise.mail)} |`,
    `| trickled DATA | ${describe(x.noise.mailTrickles)}; longest held ${x.noise.longestTrickleSec.mail.toFixed(1)} s |`,
    `| trickled form posts | ${describe(x.noise.formTrickles)}; longest held ${x.noise.longestTrickleSec.form.toFixed(1)} s |`,
    '',
  ];
}

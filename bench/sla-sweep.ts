/**
 * The SLA sweep at size (sla.md section 3, docs/benchmarks.md): BENCH_SLA_CLOCKS running clocks
 * (100,000) in one organization under a 24x7 policy with one target (first response in P1D), so
 * each case has one clock and one breach timer. The cases are built in bulk with creation times
 * that put their due times hours ahead; a worker process of its own (ROLE=worker, a sweep pass
 * every second) then tracks them all through the change feed, as it does any case, and:
 * - its catch-up time says how fast the sweep takes in a backlog of changed cases;
 * - its passes with every clock running and none due say what a pass costs at that size (the
 *   worker's `sla_sweep_pass_seconds`, and the database's busy time, `pg_stat_database.active_time`,
 *   of every one of the worker's loops together, per pass: an upper bound);
 * - BENCH_SLA_DUE more cases (5,000), due evenly over the next minute, say how late breaches fire
 *   while they come due at that rate (their `fired_at` against `fire_at`) and what a busy pass costs.
 */
import { freePort } from '../scripts/local-infra.js';
import type { BenchContext } from './context.js';
import { nodeArgs, sleep, startNode, waitUntilReady } from './procs.js';
import { call, createOrganization, publishWorkflow } from './setup.js';

export interface SlaSweepResult {
  clocks: number;
  catchUpSec: number;
  idle: PassCost;
  busy: PassCost;
  due: number;
  fired: number;
  lateMs: { p50: number; p99: number; max: number };
}

interface PassCost {
  passes: number;
  /** Mean duration of a pass in the worker. */
  passMs: number;
  /** The database's busy time while the worker ran, per pass (all of the worker's loops). */
  databaseMsPerPass: number;
}

const BATCH = 50_000;
const WINDOW_SEC = 60;
const IDLE_SEC = 20;
/** The target's length: a case created this long before its due time. */
const TARGET_SEC = 24 * 3600;

/** Cases `from`..`to` of the workflow, each due `$6 + (g - from) * $7` seconds from now. */
const BUILD_SQL = `
  INSERT INTO cases (organization_id, workflow_id, workflow_version, subject, status, mode, source, attributes, created_at, updated_at)
  SELECT $1, $2, $3, 'SLA bench ' || g, 'Open', 'live', 'API', '{}'::jsonb,
         now() - make_interval(secs => ${TARGET_SEC} - $6::float8 - (g - $4) * $7::float8), now()
  FROM generate_series($4::int, $5::int) AS g`;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

export async function runSlaSweep(ctx: BenchContext, log: (line: string) => void): Promise<SlaSweepResult> {
  const clocks = Math.round(Number(process.env.BENCH_SLA_CLOCKS ?? 100_000));
  const due = Math.round(Number(process.env.BENCH_SLA_DUE ?? 5_000));
  const base = ctx.targets.service.url;
  const org = await createOrganization(base, ctx.serviceEnv.OPERATOR_TOKEN!, 'SLA bench');
  const workflowId = await publishWorkflow(base, org.adminToken, { name: 'SLA bench', case_source: 'direct', sensitive_data: false, attributes: {}, automations: {} });
  await call(base, 'PUT', '/api/admin/v1/calendars/Always', org.adminToken, { time_zone: 'UTC', hours: '24x7', holidays: [] });
  await call(base, 'PUT', `/api/admin/v1/workflows/${workflowId}/sla`, org.adminToken, { calendar: 'Always', targets: { normal: { first_response: 'P1D' } }, pause_statuses: [] });
  // A policy applies to cases created after it: these are built as created up to a day ago.
  await ctx.db.query(`UPDATE sla_policies SET created_at = now() - interval '2 days' WHERE organization_id = $1`, [org.organizationId]);
  const { rows: [version] } = await ctx.db.query<{ version: number }>('SELECT version FROM workflows WHERE id = $1', [workflowId]);
  const build = async (from: number, to: number, firstDueSec: number, stepSec: number) => {
    for (let next = from; next <= to; next += BATCH) {
      await ctx.db.query(BUILD_SQL, [org.organizationId, workflowId, version!.version, next, Math.min(to, next + BATCH - 1), firstDueSec + (next - from) * stepSec, stepSec]);
    }
  };
  // Due between 1 and 20 hours from now: running all through the measurement.
  await build(1, clocks, 3600, (19 * 3600) / clocks);
  await ctx.db.query('VACUUM ANALYZE cases');
  log(`  built ${clocks.toLocaleString('en-US')} cases with a running clock`);

  const port = await freePort();
  const worker = startNode('sla-worker', nodeArgs('sla-worker', ctx.config.serviceEntry, ctx.config.serviceNodeFlags), {
    ...ctx.serviceEnv,
    ROLE: 'worker',
    PORT: String(port),
    SMTP_PORT: '0',
  });
  try {
    await waitUntilReady(worker, `http://127.0.0.1:${port}/readyz`);
    const started = Date.now();
    const timers = async () => (await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM sla_timers WHERE organization_id = $1', [org.organizationId])).rows[0]!.n;
    while ((await timers()) < clocks) {
      if (worker.exited()) throw new Error(`the worker exited:\n${worker.output()}`);
      if (Date.now() - started > 30 * 60_000) throw new Error(`the sweep tracked ${await timers()} of ${clocks} clocks in 30 minutes`);
      await sleep(500);
    }
    const catchUpSec = (Date.now() - started) / 1000;
    log(`  the sweep tracked ${clocks.toLocaleString('en-US')} clocks in ${catchUpSec.toFixed(1)} s`);

    const cost = await passCost(ctx, port);
    await sleep(IDLE_SEC * 1000);
    const idle = await cost();
    log(`  idle pass at ${clocks.toLocaleString('en-US')} running clocks: ${idle.passMs.toFixed(2)} ms (${idle.passes} passes), database ${idle.databaseMsPerPass.toFixed(2)} ms per pass`);

    const leadSec = 10;
    const { rows: [last] } = await ctx.db.query<{ id: string }>('SELECT max(id)::text AS id FROM cases WHERE workflow_id = $1', [workflowId]);
    await build(clocks + 1, clocks + due, leadSec, WINDOW_SEC / due);
    const busyCost = await passCost(ctx, port);
    await sleep((leadSec + WINDOW_SEC + 10) * 1000);
    const busy = await busyCost();
    const { rows } = await ctx.db.query<{ late_ms: number | null }>(
      `SELECT extract(epoch FROM t.fired_at - t.fire_at) * 1000 AS late_ms FROM sla_timers t
       WHERE t.organization_id = $1 AND t.case_id > $2::bigint`,
      [org.organizationId, last!.id],
    );
    const late = rows.flatMap((r) => (r.late_ms === null ? [] : [Number(r.late_ms)])).sort((a, b) => a - b);
    const lateMs = { p50: percentile(late, 50), p99: percentile(late, 99), max: late.at(-1) ?? NaN };
    log(`  ${late.length} of ${due} breaches fired over ${WINDOW_SEC} s; late p50 ${lateMs.p50.toFixed(0)} ms, p99 ${lateMs.p99.toFixed(0)} ms, max ${lateMs.max.toFixed(0)} ms; busy pass ${busy.passMs.toFixed(1)} ms`);
    return { clocks, catchUpSec, idle, busy, due, fired: late.length, lateMs };
  } finally {
    await worker.stop();
  }
}

/** Starts a measurement of the worker's passes; the function it answers ends it. */
async function passCost(ctx: BenchContext, port: number): Promise<() => Promise<PassCost>> {
  const read = async () => {
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    const metric = (name: string) => Number(/^(\S+) (\S+)$/m.exec(text.split('\n').filter((l) => l.startsWith(`${name} `)).join('\n'))?.[2] ?? NaN);
    const { rows: [db] } = await ctx.db.query<{ active_ms: number }>('SELECT active_time AS active_ms FROM pg_stat_database WHERE datname = current_database()');
    return { count: metric('sla_sweep_pass_seconds_count'), sum: metric('sla_sweep_pass_seconds_sum'), activeMs: Number(db!.active_ms) };
  };
  const before = await read();
  return async () => {
    const after = await read();
    const passes = after.count - before.count;
    return { passes, passMs: ((after.sum - before.sum) * 1000) / passes, databaseMsPerPass: (after.activeMs - before.activeMs) / passes };
  };
}

/** The report's section: against sla.md's "within 5 seconds". */
export function slaSweepSection(result: SlaSweepResult | null, failure: string | null): string[] {
  const title = '## The SLA sweep at size';
  if (!result) return [title, '', `Not measured${failure ? `: ${failure}` : ''}.`, ''];
  const row = (what: string, cost: PassCost) => `| ${what} | ${cost.passes} | ${cost.passMs.toFixed(2)} | ${cost.databaseMsPerPass.toFixed(2)} |`;
  return [
    title,
    '',
    `${result.clocks.toLocaleString('en-US')} running clocks in one organization (24x7, one target each), tracked by one worker from the change feed in ${result.catchUpSec.toFixed(1)} s. Then ${result.due.toLocaleString('en-US')} more cases due evenly over ${WINDOW_SEC} s: ${result.fired.toLocaleString('en-US')} breaches fired, late by p50 ${result.lateMs.p50.toFixed(0)} ms, p99 ${result.lateMs.p99.toFixed(0)} ms, max ${result.lateMs.max.toFixed(0)} ms (sla.md: within 5,000 ms; ${result.fired === result.due && result.lateMs.max < 5000 ? 'met' : 'NOT met'}).`,
    '',
    '| passes | count | worker ms per pass | database ms per pass (all of the worker\'s loops) |',
    '| - | -: | -: | -: |',
    row('none due', result.idle),
    row(`${(result.due / WINDOW_SEC).toFixed(0)} due a second`, result.busy),
    '',
  ];
}

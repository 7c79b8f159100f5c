/**
 * The six fault scenarios. Each spawns its own service processes, sets up its own
 * organization and workflow, puts webhook load on it, injects its fault, and ends with the
 * common checks of Verdict.settle (answers, catch-up, nothing lost or doubled).
 */
import type { ServiceProcess } from '../support/service-process.js';
import { type EventReceiver, type Fixture, OPEN_RUN, openRunWithCall, setUpWorkflow } from './fixtures.js';
import { unfinishedRunsUpTo } from './invariants.js';
import { Load, sleep, type Target } from './load.js';
import { listeningPort, pidOf, rssBytes, terminate } from './processes.js';
import { megabytes, seconds } from './report.js';
import { SETTINGS } from './settings.js';
import { SHUTDOWN_GRACE_MS, type Stack } from './stack.js';
import { measureTakeover, TAKEOVER_BOUND_MS, workInHand } from './takeover.js';
import { CATCH_UP_MS, type Verdict } from './verdict.js';

export interface Context {
  stack: Stack;
  receiver: EventReceiver;
}

export interface Scenario {
  name: string;
  /** Runs on Stack.startReplicated: a primary and a streaming replica every service reads from. */
  replicated?: boolean;
  run(ctx: Context, v: Verdict): Promise<void>;
}

/** Load before the fault, length of an outage, load after it. */
const BEFORE_MS = 5_000;
const OUTAGE_MS = 5_000;
const AFTER_MS = 3_000;
/** How long after Postgres is back the first 201 may take. */
const RECOVERY_DEADLINE_MS = 30_000;
/** How long past SHUTDOWN_GRACE_MS a SIGTERMed API process may take to exit. */
const EXIT_MARGIN_MS = 5_000;
const SOAK_PROGRESS_MS = 30_000;
/** How long a slow subscriber takes to answer a delivery. */
const SLOW_SUBSCRIBER_MS = 100;
/** How long the receiver takes to answer a run's http_request (runs are held under their lease meanwhile). */
const CALL_MS = 100;
/** At most how long a kill waits for a run mid-request under its lease. */
const LEASED_RUN_WAIT_MS = 5_000;
const MB = 1024 * 1024;

async function targetOf(service: ServiceProcess, name: string): Promise<Target> {
  return { name, port: await listeningPort(pidOf(service)) };
}

/** Polls `probe` every 100 ms; how long until it held, or undefined past `deadlineMs`. */
async function timeUntil(probe: () => boolean | Promise<boolean>, deadlineMs: number): Promise<number | undefined> {
  const started = performance.now();
  while (performance.now() - started < deadlineMs) {
    if (await probe()) return performance.now() - started;
    await sleep(100);
  }
  return undefined;
}

/** From now: how long until every run of the cases answered so far has finished. */
function runsFinishing(ctx: Context, fx: Fixture, load: Load): Promise<number | undefined> {
  const upTo = load.maxCaseId();
  return timeUntil(async () => (await unfinishedRunsUpTo(ctx.stack.pool, fx, upTo)) === 0, CATCH_UP_MS);
}

/**
 * Kills these processes with SIGKILL at once, then measures how long the work the killed worker
 * held took to be taken over (see takeover.ts), while `meanwhile` runs; fails past TAKEOVER_BOUND_MS.
 */
async function killAndMeasureTakeover(ctx: Context, v: Verdict, fx: Fixture, doomed: ServiceProcess[], meanwhile: () => Promise<void>): Promise<void> {
  // The kill waits (a few seconds at most) for a run mid-request under its lease: with two
  // workers sharing the load, the moment the load reached could find none, and a kill then
  // would not test the takeover of a lease (it failed once so, with 0 runs mid-request).
  const waitUntil = performance.now() + LEASED_RUN_WAIT_MS;
  while (performance.now() < waitUntil && (await workInHand(ctx.stack.pool, fx)).leasedRuns === 0) await sleep(50);
  const killedAt = performance.now();
  await Promise.all(doomed.map((service) => terminate(service, 'SIGKILL', 5_000)));
  const takeover = measureTakeover(ctx.stack.pool, fx, killedAt, CATCH_UP_MS);
  await meanwhile();
  const { inHand, ms } = await takeover;
  v.expect(inHand.leasedRuns > 0, 'no run was mid-request under its lease when the worker was killed');
  v.note(`SIGKILL with ${inHand.runs.ids.length} runs and ${inHand.deliveries.ids.length} deliveries in hand or due (${inHand.leasedRuns} runs mid-request and ${inHand.leasedDeliveries} deliveries being sent, under a lease)`);
  if (ms === undefined) return v.fail(`the work in hand at the kill was not all taken over ${CATCH_UP_MS / 1000} s after it`);
  v.recovery = `${seconds(ms)} (kill → takeover)`;
  console.log(`  takeover: ${seconds(ms)} from the SIGKILL until every run and delivery in hand was claimed again or finished`);
  v.expect(ms <= TAKEOVER_BOUND_MS, `the killed worker's runs and deliveries were taken over only ${seconds(ms)} after the kill, beyond ${TAKEOVER_BOUND_MS / 1000} s`);
}

/** Requests sent while a fault lasted (between the two instants). */
function sentDuring(load: Load, from: number, to: number) {
  return load.attempts().filter((a) => a.sentAt >= from && a.sentAt < to);
}

/** Starts these service processes together; returns them once all are up. */
function spawnAll(ctx: Context, roles: ('api' | 'worker')[]): Promise<ServiceProcess[]> {
  return Promise.all(roles.map((role) => ctx.stack.spawn(role)));
}

/** An API and a worker, the standard workflow and load on the API. */
async function standardSetUp(ctx: Context, v: Verdict, key: string, { rate = SETTINGS.rate, deliveryDelayMs = 0 } = {}) {
  const [api] = await spawnAll(ctx, ['api', 'worker']);
  const fx = await setUpWorkflow(api, ctx.receiver, key, OPEN_RUN, deliveryDelayMs);
  const load = v.startLoad([await targetOf(api, 'api')], fx, rate);
  return { api, fx, load };
}

/** After BEFORE_MS of load: stops a dependency, starts it again OUTAGE_MS later; when it was down and back. */
async function outage(stop: () => Promise<void>, start: () => Promise<void>): Promise<{ downAt: number; upAt: number }> {
  await sleep(BEFORE_MS);
  await stop();
  const downAt = performance.now();
  await sleep(OUTAGE_MS);
  await start();
  return { downAt, upAt: performance.now() };
}

const postgresRestart: Scenario = {
  name: 'Postgres restart',
  async run(ctx, v) {
    // Subscribers take their time: deliveries are under way when Postgres goes.
    const { api, fx, load } = await standardSetUp(ctx, v, 'postgres', { deliveryDelayMs: SLOW_SUBSCRIBER_MS });
    const { downAt, upAt } = await outage(() => ctx.stack.stopPostgres(), () => ctx.stack.startPostgres());
    v.note(`Postgres down for ${seconds(upAt - downAt)} (stopped, then started again on the same data dir and port)`);

    const firstCreated = () => load.attempts().filter((a) => a.status === 201 && a.endedAt >= upAt).sort((a, b) => a.endedAt - b.endedAt)[0];
    await timeUntil(() => firstCreated() !== undefined, RECOVERY_DEADLINE_MS);
    const first = firstCreated();
    if (first) v.recovery = `${seconds(first.endedAt - upAt)} (Postgres up → first 201)`;
    else v.fail(`no 201 within ${RECOVERY_DEADLINE_MS / 1000} s after Postgres was back (no service was restarted)`);
    await sleep(AFTER_MS);

    const unavailable = sentDuring(load, downAt, upAt).filter((a) => a.status === 503);
    v.expect(unavailable.length > 0, 'no request sent while Postgres was down was answered 503');
    const slowest = Math.max(0, ...unavailable.map((a) => a.endedAt - a.sentAt));
    v.note(`${unavailable.length} requests sent while Postgres was down were answered 503, the slowest in ${Math.round(slowest)} ms`);
    await v.settle(ctx.stack, ctx.receiver, fx, [201, 503], api);
  },
};

const redisRestart: Scenario = {
  name: 'Redis restart',
  async run(ctx, v) {
    const { api, fx, load } = await standardSetUp(ctx, v, 'redis');
    const { downAt, upAt } = await outage(() => ctx.stack.stopRedis(), () => ctx.stack.startRedis());
    const recovered = runsFinishing(ctx, fx, load);
    await sleep(AFTER_MS);

    const created = sentDuring(load, downAt, upAt).filter((a) => a.status === 201);
    v.expect(created.length > 0, 'no case was created while Redis was down');
    v.note(`Redis down for ${seconds(upAt - downAt)} (no persistence: its queues came back empty); ${created.length} cases created meanwhile`);
    await v.settle(ctx.stack, ctx.receiver, fx, [201], api);
    const ms = await recovered;
    if (ms === undefined) v.fail(`runs of the cases created up to Redis's return not finished ${CATCH_UP_MS / 1000} s after it`);
    else v.recovery = `${seconds(ms)} (Redis up → runs finished)`;
  },
};

/** Runs claimed more than once (taken over, or retried after Postgres failed them). */
async function noteTakenOver(ctx: Context, v: Verdict, fx: Fixture): Promise<void> {
  const { rows } = await ctx.stack.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM workflow_runs WHERE workflow_id = $1 AND attempts > 1`, [fx.workflowId]);
  v.note(`${rows[0]!.n} runs were claimed more than once: taken over or retried`);
}

const workerKilled: Scenario = {
  name: 'Worker SIGKILL',
  async run(ctx, v) {
    const [api, doomed] = await spawnAll(ctx, ['api', 'worker', 'worker']);
    const fx = await setUpWorkflow(api, ctx.receiver, 'worker-kill', openRunWithCall(ctx.receiver, 'worker-kill', CALL_MS), SLOW_SUBSCRIBER_MS);
    v.startLoad([await targetOf(api, 'api')], fx, SETTINGS.rate);
    await sleep(BEFORE_MS);
    await killAndMeasureTakeover(ctx, v, fx, [doomed!], () => sleep(AFTER_MS));

    // The API is not what this scenario is about: a 503 (no database connection within
    // DATABASE_CONNECT_TIMEOUT_MS on a starved machine) is counted in the table, not failed.
    await v.settle(ctx.stack, ctx.receiver, fx, [201, 503], api);
    await noteTakenOver(ctx, v, fx);
  },
};

/**
 * Issue 9's guarantees under load and crashes: two API and two worker processes; the load goes
 * to the APIs in turn, through the cases API with an Idempotency-Key (a request whose API died
 * is sent to the other one). One worker and one API are killed mid-load and started again.
 */
const manyInstances: Scenario = {
  name: 'Two APIs and two workers',
  async run(ctx, v) {
    const [a, b, , doomedWorker] = await spawnAll(ctx, ['api', 'api', 'worker', 'worker']);
    const fx = await setUpWorkflow(a, ctx.receiver, 'many', openRunWithCall(ctx.receiver, 'many', CALL_MS), SLOW_SUBSCRIBER_MS);
    const targetB = await targetOf(b, 'B');
    await Load.warmUp(targetB, fx.workflowId, fx.apiToken);
    const load = v.startLoad([await targetOf(a, 'A'), targetB], fx, SETTINGS.rate, { retryStatuses: [503], alternate: true, apiToken: fx.apiToken });
    await sleep(BEFORE_MS);
    await killAndMeasureTakeover(ctx, v, fx, [doomedWorker!, b], async () => {
      const [newB] = await spawnAll(ctx, ['api', 'worker']);
      load.moveTarget('B', (await targetOf(newB, 'B')).port);
      v.note('worker and API B started again after the kill');
      await sleep(AFTER_MS);
    });
    const retried = load.posted.filter((p) => p.attempts.length > 1);
    v.note(`${retried.length} requests were sent again to the other API, ${retried.filter((p) => p.attempts.at(-1)?.status === 201).length} of them answered 201`);
    await v.settle(ctx.stack, ctx.receiver, fx, [201, 503], a);
    await noteTakenOver(ctx, v, fx);
  },
};

const apiTerminated: Scenario = {
  name: 'API SIGTERM',
  async run(ctx, v) {
    const [a, b] = await spawnAll(ctx, ['api', 'api', 'worker']);
    const fx = await setUpWorkflow(a, ctx.receiver, 'api-term', OPEN_RUN);
    const [targetA, targetB] = [await targetOf(a, 'A'), await targetOf(b, 'B')];
    await Load.warmUp(targetB, fx.workflowId, fx.apiToken);
    // Requests go to A; one A does not answer, or answers 503 (draining: "go elsewhere"), is sent to B.
    const load = v.startLoad([targetA, targetB], fx, SETTINGS.rate, { retryStatuses: [503] });
    await sleep(BEFORE_MS);
    await timeUntil(() => load.inFlight('A') > 0, BEFORE_MS);
    const termAt = performance.now();
    const bound = SHUTDOWN_GRACE_MS + EXIT_MARGIN_MS;
    const { ms, exit } = await terminate(a, 'SIGTERM', bound);
    if (exit === undefined) v.fail(`A did not exit within ${bound / 1000} s of SIGTERM (SHUTDOWN_GRACE_MS + ${EXIT_MARGIN_MS / 1000} s); it was SIGKILLed`);
    else v.expect(exit === '0', `A exited with ${exit} after SIGTERM, not 0: ${a.describe()}`);
    v.note(`A exited (${exit ?? 'killed'}) ${seconds(ms)} after SIGTERM`);
    await sleep(AFTER_MS);
    await load.stop();

    const attempts = load.attempts();
    const inFlight = attempts.filter((x) => x.target === 'A' && x.sentAt < termAt && x.endedAt > termAt);
    const complete = inFlight.filter((x) => x.outcome === 'response');
    v.note(`${inFlight.length} requests in flight at A when it got SIGTERM: ${complete.length} answered completely (${complete.filter((x) => x.status === 201).length} with 201)`);
    const shed = attempts.filter((x) => x.status === 503);
    v.expect(shed.every((x) => x.target === 'A' && x.endedAt >= termAt), 'a 503 came from B, or from A before it was told to stop');
    if (shed.length) v.note(`${shed.length} requests reaching A on an open connection while it drained were answered 503 ${shed[0]!.text} and sent to B`);
    const retried = load.posted.filter((p) => p.attempts.length > 1).length;
    v.expect(retried > 0, 'no request was turned away by A and sent to B: A kept taking requests after SIGTERM');
    const notCreated = load.posted.filter((p) => p.caseId === undefined);
    v.expect(notCreated.length === 0, `${notCreated.length} requests were created by neither A nor B, e.g. ${JSON.stringify(notCreated[0]?.attempts)}`);
    await v.settle(ctx.stack, ctx.receiver, fx, [201, 503], b);
  },
};

const soak: Scenario = {
  name: 'Soak',
  async run(ctx, v) {
    const { api, fx, load } = await standardSetUp(ctx, v, 'soak', { rate: SETTINGS.soakRate });
    const pid = pidOf(api);
    const rssStart = rssBytes(pid);
    const started = performance.now();
    for (let elapsed = 0; elapsed < SETTINGS.soakSeconds * 1000; elapsed = performance.now() - started) {
      await sleep(Math.min(SOAK_PROGRESS_MS, SETTINGS.soakSeconds * 1000 - elapsed));
      console.log(`  soak ${Math.round((performance.now() - started) / 1000)}/${SETTINGS.soakSeconds} s: ${load.posted.length} sent, ${load.created().length} created, API RSS ${megabytes(rssBytes(pid))}`);
    }
    const rssEnd = rssBytes(pid);
    const limit = rssStart * 1.5 + 50 * MB;
    v.rss = `${megabytes(rssStart)} / ${megabytes(rssEnd)}`;
    v.expect(rssEnd <= limit, `API RSS grew from ${megabytes(rssStart)} to ${megabytes(rssEnd)}, over the limit of ${megabytes(limit)} (start + 50% + 50 MB)`);
    v.note(`${SETTINGS.soakSeconds} s at ${SETTINGS.soakRate} req/s requested: ${(load.posted.length / SETTINGS.soakSeconds).toFixed(1)} req/s sent`);
    await v.settle(ctx.stack, ctx.receiver, fx, [201], api);
  },
};

/**
 * The pauses between the replica scenario's reads: the quiet organization's short enough that
 * they reach the replica between its death and the poll that finds it gone (up to a quarter
 * second), which only the read again from the primary answers.
 */
const QUIET_READ_EVERY_MS = 5;
const LOADED_READ_EVERY_MS = 100;

interface Read {
  what: 'list' | 'feed' | 'quiet list';
  sentAt: number;
  status: number;
  text: string;
}

/**
 * A client of the read side beside the load, through `api`, every READ_EVERY_MS until stopped:
 * lists the loaded workflow's cases and follows its change feed (that organization changes
 * something all the time, so its reads wait for the replica to replay the primary's position),
 * and lists the cases of `quiet`, an organization that changed nothing lately (served straight
 * by the replica), which must be exactly `quietCaseIds` every time. Every answer is kept, and the
 * cases the feed delivered.
 */
function startReading(api: ServiceProcess, fx: Fixture, quiet: Fixture, quietCaseIds: number[]) {
  const casesOf = (f: Fixture) => `/api/external/v1/workflows/${f.workflowId}/cases`;
  const reads: Read[] = [];
  const delivered = new Set<number>();
  let cursor: string | undefined;
  const read = async (what: Read['what'], url: string, token: string) => {
    const sentAt = performance.now();
    const res = await api.request('GET', url, { token }).catch((err: unknown) => ({ status: 0, text: String(err), body: undefined }));
    reads.push({ what, sentAt, status: res.status, text: res.text.slice(0, 200) });
    return res;
  };
  /** One page of the feed from where the last left off. */
  const readFeed = async () => {
    const res = await read('feed', `${casesOf(fx)}/changes${cursor ? `?after=${cursor}` : ''}`, fx.apiToken);
    if (res.status !== 200) return;
    const page = res.body as { cases: { id: number }[]; next_cursor: string };
    for (const c of page.cases) delivered.add(c.id);
    cursor = page.next_cursor;
  };
  const wrongQuietLists: string[] = [];
  const readQuietList = async () => {
    const res = await read('quiet list', casesOf(quiet), quiet.apiToken);
    const ids = res.status === 200 ? (res.body as { cases: { id: number }[] }).cases.map((c) => c.id).sort((a, b) => a - b) : undefined;
    if (ids && ids.join() !== quietCaseIds.join()) wrongQuietLists.push(ids.join());
  };
  let reading = true;
  const every = async (pauseMs: number, reads: () => Promise<void>) => {
    while (reading) {
      await reads();
      await sleep(pauseMs);
    }
  };
  // The quiet organization reads most often, so that its reads, not the loaded one's replay
  // checks, are the first to find the replica gone.
  const loops = Promise.all([
    every(LOADED_READ_EVERY_MS, async () => {
      await read('list', casesOf(fx), fx.apiToken);
      await readFeed();
    }),
    every(QUIET_READ_EVERY_MS, readQuietList),
  ]);
  return {
    reads,
    delivered,
    wrongQuietLists,
    readFeed,
    stop: async () => {
      reading = false;
      await loops;
    },
  };
}

/** What the API's /metrics says `name` is. */
async function metricOf(api: ServiceProcess, name: string): Promise<number | undefined> {
  const res = await api.request('GET', '/metrics').catch(() => undefined);
  const line = res?.text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

/**
 * Issue 28: the replica every read goes to is SIGKILLed mid-load and started again. Reads (the
 * lists and the change feed) are answered throughout, from the primary while the replica is
 * gone (the quiet organization's first reads after the kill reach the dead replica and are read
 * again from the primary); intake goes on; the feed delivers every case created, none skipped;
 * and the replica is used again once it is back. The stack's DATABASE_READ_MAX_LAG_MS (2 s)
 * lets the quiet organization's mark of its own cases expire before the kill.
 */
const replicaKilled: Scenario = {
  name: 'Replica SIGKILL',
  replicated: true,
  async run(ctx, v) {
    const replica = ctx.stack.replica!;
    const [api] = await spawnAll(ctx, ['api', 'worker']);
    const quiet = await setUpWorkflow(api, ctx.receiver, 'replica-quiet', OPEN_RUN);
    const quietCaseIds: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await api.request('POST', `/api/external/v1/workflows/${quiet.workflowId}/cases`, { token: quiet.apiToken, body: { subject: `quiet ${i}` } });
      quietCaseIds.push((res.body as { case: { id: number } }).case.id);
    }
    const fx = await setUpWorkflow(api, ctx.receiver, 'replica', OPEN_RUN);
    const load = v.startLoad([await targetOf(api, 'api')], fx, SETTINGS.rate);
    const inUse = async () => (await metricOf(api, 'database_read_replica_in_use')) === 1;
    const reading = startReading(api, fx, quiet, quietCaseIds);
    v.expect((await timeUntil(inUse, RECOVERY_DEADLINE_MS)) !== undefined, 'the replica was never in use');
    await sleep(BEFORE_MS);
    await replica.killReplica();
    const downAt = performance.now();
    const skippedMs = await timeUntil(async () => !(await inUse()), OUTAGE_MS);
    v.expect(skippedMs !== undefined, `the API still counted the replica in use ${OUTAGE_MS / 1000} s after it was killed`);
    await sleep(OUTAGE_MS - (performance.now() - downAt));
    await replica.startReplica();
    const upAt = performance.now();
    v.note(`replica SIGKILLed (skipped ${skippedMs === undefined ? 'never' : `after ${seconds(skippedMs)}`}), started again ${seconds(upAt - downAt)} later`);
    const backMs = await timeUntil(inUse, RECOVERY_DEADLINE_MS);
    if (backMs === undefined) v.fail(`the replica was not in use again ${RECOVERY_DEADLINE_MS / 1000} s after it was back`);
    else v.recovery = `${seconds(backMs)} (replica up → in use)`;
    await sleep(AFTER_MS);
    await reading.stop();

    const during = reading.reads.filter((r) => r.sentAt >= downAt && r.sentAt < upAt);
    v.expect(during.some((r) => r.status === 200), 'no read was answered while the replica was down');
    // A 429 is the list reads' fair share (LIST_READ_DATABASE_MS_PER_SECOND), an answer as documented.
    const wrong = reading.reads.filter((r) => r.status !== 200 && r.status !== 429);
    if (wrong.length) v.fail(`${wrong.length} reads were answered neither 200 nor 429, e.g. ${wrong[0]!.what} ${wrong[0]!.status} ${wrong[0]!.text}`);
    v.expect(reading.wrongQuietLists.length === 0, `${reading.wrongQuietLists.length} lists of the quiet organization were not its ${quietCaseIds.length} cases, e.g. [${reading.wrongQuietLists[0]}]`);
    v.note(`${reading.reads.length} reads (lists and change feed), ${during.length} while the replica was down; ${reading.reads.filter((r) => r.status === 429).length} answered 429`);
    await v.settle(ctx.stack, ctx.receiver, fx, [201], api);

    const created = load.created().map((p) => p.caseId!);
    const missing = () => created.filter((id) => !reading.delivered.has(id));
    await timeUntil(async () => {
      await reading.readFeed();
      return missing().length === 0;
    }, CATCH_UP_MS);
    v.expect(missing().length === 0, `the change feed never delivered ${missing().length} of the ${created.length} cases created, e.g. ${missing()[0]}`);
  },
};

export const SCENARIOS: Scenario[] = [postgresRestart, redisRestart, workerKilled, manyInstances, apiTerminated, soak, replicaKilled];

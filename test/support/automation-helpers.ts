/** Fixtures, polling and a local HTTP receiver for the automation engine's end-to-end specs. */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { wholeTimeline } from './cases-api.js';
import { createWorkflow, givenDirectWorkflow, sampleDefinition, type DirectWorkflow } from './scenario.js';
import { db, startTestApp, type InjectResult, type TestApp } from './test-app.js';
import { createTestDatabase, dropTestDatabase } from './test-infra.js';
import type { ExtensionModule } from '../../src/extension-api/extensions.js';

/** How long a test waits for runs to reach their final state before it fails. */
export const RUN_DEADLINE_MS = 20_000;
const POLL_MS = 25;

/** Anything that answers requests like TestApp does: the in-process app or a spawned service. */
export type Requester = Pick<TestApp, 'request'>;

export interface Automated extends DirectWorkflow {
  r: Requester;
}

/** The sample direct workflow (customer_email required, priority 1-3, ...) with statuses Triage and Review and these automations. */
export function automationDefinition(automations: Record<string, unknown[]>, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return sampleDefinition({ name: 'Automation checks', statuses: ['Triage', 'Review'], automations, ...overrides });
}

/** A fresh organization with an API token and a published workflow with these automations. */
export async function givenAutomation(r: Requester, automations: Record<string, unknown[]>, overrides: Record<string, unknown> = {}): Promise<Automated> {
  // The scenario helpers only ever call request(), which every Requester has.
  const w = await givenDirectWorkflow(r as TestApp, automationDefinition(automations, overrides));
  return { ...w, r };
}

/** Another published workflow with these automations, in the same organization, reached with the same token. */
export async function anotherAutomation(w: Automated, automations: Record<string, unknown[]>): Promise<Automated> {
  const workflowId = await createWorkflow(w.r as TestApp, w.org, automationDefinition(automations));
  return { ...w, workflowId, casesPath: `/api/external/v1/workflows/${workflowId}/cases` };
}

export const EMAIL = 'ada@example.com';

/** Creates a case (live unless `mode` says otherwise); fails the test unless the answer is 201. */
export async function createCase(w: Automated, body: Record<string, unknown> = {}): Promise<number> {
  const res = await w.r.request('POST', w.casesPath, { token: w.apiToken, body: { attributes: { customer_email: EMAIL }, ...body } });
  assert.equal(res.status, 201, res.text);
  return res.body.case.id;
}

export function patchStatus(w: Automated, caseId: number, status: string): Promise<InjectResult> {
  return w.r.request('PATCH', `${w.casesPath}/${caseId}`, { token: w.apiToken, body: { status } });
}

export async function readCase(w: Automated, caseId: number): Promise<InjectResult> {
  const res = await w.r.request('GET', `${w.casesPath}/${caseId}`, { token: w.apiToken });
  assert.equal(res.status, 200, res.text);
  return res;
}

export interface TimelineEvent {
  type: string;
  by: { type: string; id?: number };
  at: string;
  [field: string]: any;
}

export function timelineOf(w: Automated, caseId: number): Promise<TimelineEvent[]> {
  return wholeTimeline<TimelineEvent>(w.r, w.org.adminToken, caseId);
}

export const ofType = (events: TimelineEvent[], type: string) => events.filter((e) => e.type === type);

/** The first event of `type` matching `fields`; fails the test when there is none. */
export function findEvent(events: TimelineEvent[], type: string, fields: Record<string, unknown> = {}): TimelineEvent {
  const found = events.find((e) => e.type === type && Object.entries(fields).every(([k, v]) => isDeepEqual(e[k], v)));
  assert.ok(found, `no ${type} event with ${JSON.stringify(fields)} on the timeline: ${JSON.stringify(events.map(brief))}; ${type} events: ${JSON.stringify(ofType(events, type))}`);
  return found;
}

/** Type and the fields that tell events apart, for failure messages and ordered comparisons. */
export function brief(e: TimelineEvent): string {
  const parts = [e.type, e.by.type];
  if (e.status !== undefined) parts.push(e.status);
  if (e.from !== undefined) parts.push(`${e.from}->${e.to}`);
  return parts.join(' ');
}

function isDeepEqual(a: unknown, b: unknown): boolean {
  try {
    assert.deepEqual(a, b);
    return true;
  } catch {
    return false;
  }
}

/** Polls `probe` until it gives something other than undefined; fails with `what` (and `explain()`) at the deadline. */
export async function eventually<T>(what: string, probe: () => Promise<T | undefined>, options: { timeoutMs?: number; explain?: () => Promise<string> } = {}): Promise<T> {
  const timeoutMs = options.timeoutMs ?? RUN_DEADLINE_MS;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) {
      const detail = options.explain ? `; ${await options.explain()}` : '';
      assert.fail(`timed out after ${timeoutMs / 1000} s waiting for ${what}${detail}`);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

export interface RunRow {
  id: number;
  status: string;
  mode: string;
  state: string;
  error: string | null;
  attempts: number;
  chain_depth: number;
  current_step: number;
}

const RUN_COLUMNS = 'id::int, status, mode, state, error, attempts, chain_depth, current_step';

export async function runsOf(caseId: number, pool: pg.Pool = db()): Promise<RunRow[]> {
  const { rows } = await pool.query<RunRow>(`SELECT ${RUN_COLUMNS} FROM workflow_runs WHERE case_id = $1 ORDER BY id`, [caseId]);
  return rows;
}

export interface SettledCase {
  status: string;
  outcome: string | null;
  attributes: Record<string, unknown>;
  runs: RunRow[];
}

const UNFINISHED = new Set(['pending', 'running', 'waiting']);

/**
 * The case and its runs from one statement, so one snapshot: read apart, a run the worker
 * commits between the two reads looks finished beside the case as it was before that run.
 */
async function caseState(caseId: number, pool: pg.Pool): Promise<SettledCase> {
  const { rows } = await pool.query(
    `SELECT c.status, c.outcome, c.attributes,
            coalesce((SELECT json_agg(r ORDER BY r.id) FROM (SELECT ${RUN_COLUMNS} FROM workflow_runs WHERE case_id = c.id) r), '[]') AS runs
       FROM cases c WHERE c.id = $1`,
    [caseId],
  );
  assert.equal(rows.length, 1, `case ${caseId} is stored`);
  return rows[0];
}

/**
 * Waits until the case is in `status` (any status when null) with every run finished (the
 * automation has nothing left to do).
 */
export async function waitForSettled(caseId: number, status: string | null, options: { pool?: pg.Pool; timeoutMs?: number } = {}): Promise<SettledCase> {
  const pool = options.pool ?? db();
  return eventually(
    `case ${caseId} to settle in ${status ?? 'any status'}`,
    async () => {
      const state = await caseState(caseId, pool);
      return (status === null || state.status === status) && state.runs.length > 0 && !state.runs.some((r) => UNFINISHED.has(r.state)) ? state : undefined;
    },
    { timeoutMs: options.timeoutMs, explain: async () => `case is ${JSON.stringify(await caseState(caseId, pool))}` },
  );
}

/** Waits until the case has a run of `status` in `state` and returns it. */
export async function waitForRun(caseId: number, status: string, state: string, pool: pg.Pool = db()): Promise<RunRow> {
  return eventually(
    `a ${status} run of case ${caseId} in state ${state}`,
    async () => (await runsOf(caseId, pool)).find((r) => r.status === status && r.state === state),
    { explain: async () => `runs are ${JSON.stringify(await runsOf(caseId, pool))}` },
  );
}

/**
 * Waits until the case is parked in Error and checks what the engine recorded: its last run
 * failed with `error`, and the timeline has that run's run_failed and the move to Error (by
 * the engine) with the same reason.
 */
export async function assertParkedInError(w: Automated, caseId: number, error: string | RegExp, pool?: pg.Pool): Promise<{ settled: SettledCase; failed: RunRow; events: TimelineEvent[] }> {
  const settled = await waitForSettled(caseId, 'Error', { pool });
  assert.equal(settled.outcome, null);
  const failed = settled.runs.at(-1)!;
  assert.equal(failed.state, 'failed', JSON.stringify(settled.runs));
  if (typeof error === 'string') assert.equal(failed.error, error);
  else assert.match(failed.error ?? '', error);
  const events = await timelineOf(w, caseId);
  const runFailed = findEvent(events, 'run_failed', { run_id: failed.id, status: failed.status, error: failed.error });
  assert.deepEqual(runFailed.by, { type: 'engine' });
  const parked = findEvent(events, 'status_changed', { to: 'Error', reason: failed.error });
  assert.deepEqual(parked.by, { type: 'engine' });
  return { settled, failed, events };
}

// --- A local HTTP server standing in for the outside systems http_request calls ---

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Reply {
  status: number;
  body?: unknown;
  /** Sent exactly as given, instead of `body`'s JSON text. */
  rawBody?: string;
  /** Answer only after this long (the connection stays open meanwhile). */
  delayMs?: number;
}

export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  waitForRequests(count: number): Promise<void>;
  close(): Promise<void>;
}

/** Starts a server on 127.0.0.1 (port 0) that records every request and answers `reply(n)` to the n-th (from 1). */
export async function startReceiver(reply: (n: number, request: ReceivedRequest) => Reply): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const received = { method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(received);
      const answer = reply(requests.length, received);
      const send = () => {
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(answer.rawBody ?? (answer.body === undefined ? '' : JSON.stringify(answer.body)));
      };
      if (!answer.delayMs) return send();
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (!res.destroyed) send();
      }, answer.delayMs);
      timers.add(timer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    waitForRequests: (count) => eventually(`${count} request(s) at the receiver`, async () => (requests.length >= count ? true : undefined), {
      explain: async () => `it got ${requests.length}`,
    }).then(() => undefined),
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A receiver closed when the test ends, pass or fail. */
export async function receiverFor(test: { after(fn: () => Promise<void>): void }, reply: (n: number, request: ReceivedRequest) => Reply): Promise<Receiver> {
  const receiver = await startReceiver(reply);
  test.after(() => receiver.close());
  return receiver;
}

// --- A database of its own, for tests that must be the only executor of their runs ---

export interface IsolatedDatabase {
  url: string;
  pool: pg.Pool;
  drop(): Promise<void>;
}

/**
 * A fresh, migrated database on the test run's Postgres server. Every app of the test run
 * (ROLE=all) relays and executes the pending runs of the shared database, so a test that
 * needs its runs executed by one particular process (other settings, a process it kills)
 * gives that process a database no other app reads.
 */
export async function isolatedDatabase(): Promise<IsolatedDatabase> {
  const server = new URL(process.env.DATABASE_URL!);
  server.pathname = '/postgres';
  const url = await createTestDatabase(server.toString(), `cis_iso_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`);
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  // An idle connection the server closes (a restart, a forced drop) must not crash the test process.
  pool.on('error', () => undefined);
  return {
    url,
    pool,
    drop: async () => {
      await pool.end();
      await dropTestDatabase(server.toString(), url);
    },
  };
}

/** Runs under the test run's Redis prefix, so the runner's clean-up removes them too. */
export const isolatedRedisPrefix = () => `${process.env.REDIS_PREFIX}:iso-${randomBytes(4).toString('hex')}`;

/** The real app (ROLE=all) on a database and queue of its own, with extra settings. */
export async function startIsolatedApp(env: Record<string, string>, extensions: ExtensionModule[] = []): Promise<{ t: TestApp; database: IsolatedDatabase; close(): Promise<void> }> {
  const database = await isolatedDatabase();
  let t: TestApp;
  try {
    t = await startTestApp({ env: { ...env, DATABASE_URL: database.url, REDIS_PREFIX: isolatedRedisPrefix() }, extensions });
  } catch (err) {
    await database.drop();
    throw err;
  }
  return {
    t,
    database,
    close: async () => {
      await t.close();
      await database.drop();
    },
  };
}

/**
 * Event subscriptions end-to-end helpers: a real HTTP receiver on 127.0.0.1 that records every
 * request (headers and exact body) and answers per a programmable script, a bounded polling
 * `waitFor`, and thin wrappers over the subscriptions admin API.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { DeliveryAttemptView } from '../../src/modules/subscriptions/application/subscriptions.service.js';
import type { Organization } from './scenario.js';
import { db, type TestApp } from './test-app.js';

export const SUBSCRIPTIONS = '/api/admin/v1/subscriptions';

export interface ReceivedRequest {
  method: string;
  /** Path and query the request was sent to. */
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
  /** What the receiver answered. */
  answered: number;
}

/** The webhook body as the contract fixes it. */
export interface EventBody {
  id: string;
  type: string;
  timestamp: string;
  data: { case: Record<string, any> };
}

/** Decides the status to answer; `n` counts the requests received so far (0 for the first). */
export type Script = (request: Omit<ReceivedRequest, 'answered'>, n: number) => number;

/** Answers the given statuses in turn, then `then` for every later request. */
export function inTurn(statuses: number[], then = 200): Script {
  return (_req, n) => statuses[n] ?? then;
}

/**
 * Answers 500 with probability `failRate` (from a seeded generator, so a failing run can be
 * replayed), but never more than `maxFailuresPerEvent` times for one webhook-id, which keeps
 * the retry backoff (4x per attempt) short.
 */
export function flaky(seed: number, failRate: number, maxFailuresPerEvent: number): Script {
  const random = mulberry32(seed);
  const failures = new Map<string, number>();
  return (req) => {
    const id = String(req.headers['webhook-id']);
    const failed = failures.get(id) ?? 0;
    if (failed < maxFailuresPerEvent && random() < failRate) {
      failures.set(id, failed + 1);
      return 500;
    }
    return 200;
  };
}

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A real local receiver: node:http on 127.0.0.1, port chosen by the OS, kept across stop/resume. */
export class Receiver {
  readonly requests: ReceivedRequest[] = [];
  script: Script = () => 200;
  private readonly server: Server;
  private port = 0;

  private constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const seen = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, rawBody: Buffer.concat(chunks).toString('utf8') };
        const answered = this.script(seen, this.requests.length);
        this.requests.push({ ...seen, answered });
        res.writeHead(answered, { 'content-type': 'text/plain' }).end(answered < 300 ? 'ok' : 'no');
      });
    });
  }

  static async start(): Promise<Receiver> {
    const receiver = new Receiver();
    await receiver.listen();
    return receiver;
  }

  /** The base URL; append a path to tell subscriptions apart. */
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Stops listening and drops every open connection: from now on connections are refused. */
  async stop(): Promise<void> {
    if (!this.server.listening) return;
    const closed = new Promise<void>((resolve, reject) => this.server.close((err) => (err ? reject(err) : resolve())));
    this.server.closeAllConnections();
    await closed;
  }

  /** Listens again on the same port. */
  resume(): Promise<void> {
    return this.listen();
  }

  private listen(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.port, '127.0.0.1', () => {
        this.server.off('error', reject);
        this.port = (this.server.address() as AddressInfo).port;
        resolve();
      });
    });
  }

  /** Requests sent to this path. */
  at(path: string): ReceivedRequest[] {
    return this.requests.filter((r) => r.path === path);
  }

  /** The events this receiver accepted (answered 2xx), in arrival order, optionally only at `path`. */
  accepted(path?: string): EventBody[] {
    return this.requests.filter((r) => r.answered < 300 && (path === undefined || r.path === path)).map(eventOf);
  }

  /** Every request (whatever it was answered) carrying an event about this case. */
  aboutCase(caseId: number): ReceivedRequest[] {
    return this.requests.filter((r) => eventOf(r).data.case.id === caseId);
  }
}

export function eventOf(request: ReceivedRequest): EventBody {
  return JSON.parse(request.rawBody) as EventBody;
}

/** The Standard Webhooks check a subscriber runs; throws when the signature does not verify. */
export function verifySignature(secret: string, request: ReceivedRequest): void {
  const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)]));
  new Webhook(secret).verify(request.rawBody, headers);
}

/**
 * Polls `probe` (every 50 ms) until it returns something other than undefined/false, and
 * returns that. Past `deadlineMs` it fails with `what` and the last value `describe` gives.
 */
export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  { deadlineMs = 20_000, describe }: { deadlineMs?: number; describe?: () => unknown } = {},
): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) {
      const state = describe ? `; last seen: ${JSON.stringify(await describe())}` : '';
      assert.fail(`timed out after ${deadlineMs} ms waiting for ${what}${state}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface Subscription {
  id: number;
  secret: string;
  view: Record<string, any>;
}

/** Creates a subscription; fails the test unless the answer is 201. */
export async function subscribe(t: TestApp, org: Organization, body: Record<string, unknown>): Promise<Subscription> {
  const res = await t.request('POST', SUBSCRIPTIONS, { token: org.adminToken, body });
  assert.equal(res.status, 201, res.text);
  return { id: res.body.subscription.id, secret: res.body.signing_secret, view: res.body.subscription };
}

/** One row of the deliveries log, as the service declares it. */
export type DeliveryAttempt = DeliveryAttemptView;

/** The subscription's deliveries log (every attempt, up to 1000). */
export async function deliveriesLog(t: TestApp, org: Organization, subscriptionId: number): Promise<DeliveryAttempt[]> {
  const res = await t.request('GET', `${SUBSCRIPTIONS}/${subscriptionId}/deliveries?limit=1000`, { token: org.adminToken });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(Object.keys(res.body), ['deliveries']);
  return res.body.deliveries;
}

/** How many times each event id appears with `delivered: true` in the log. */
export function deliveredCounts(log: DeliveryAttempt[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const a of log) if (a.delivered) counts.set(a.event_id, (counts.get(a.event_id) ?? 0) + 1);
  return counts;
}

/** The lifecycle events stored in the outbox for a case, oldest first. */
export async function outboxTypes(caseId: number): Promise<string[]> {
  const { rows } = await db().query<{ type: string }>('SELECT type FROM outbox_events WHERE case_id = $1 ORDER BY id', [caseId]);
  return rows.map((r) => r.type);
}

/** The case ids the subscription has deliveries for, in the database. */
export async function deliveryCaseIds(subscriptionId: number): Promise<number[]> {
  const { rows } = await db().query<{ case_id: string }>('SELECT DISTINCT case_id FROM event_deliveries WHERE subscription_id = $1 ORDER BY case_id', [subscriptionId]);
  return rows.map((r) => Number(r.case_id));
}

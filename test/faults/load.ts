/**
 * The load generator: `concurrency` loops posting to the webhook at a bounded total rate, one
 * unique ~1 KB JSON object per request, over node:http with a client timeout. Every attempt is
 * recorded with how it ended. When a target cannot be reached (refused, or the connection
 * dropped before any response) the same request is retried on the next target, if any.
 * Requests go to the webhook, or to the cases API with an Idempotency-Key (then a request whose
 * instance died mid-way can be retried on another without creating its case twice).
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';

export interface Target {
  name: string;
  port: number;
}

/**
 * `response`: a complete response; `refused`/`dropped`: no response at all (connection refused,
 * or reset/closed before the status line); `broken`: the response started but never completed;
 * `timeout`: nothing complete within the client timeout (a hanging request).
 */
export type AttemptOutcome = 'response' | 'refused' | 'dropped' | 'broken' | 'timeout';

export interface Attempt {
  target: string;
  outcome: AttemptOutcome;
  status?: number;
  text?: string;
  error?: string;
  /** performance.now() when it was sent and when it ended. */
  sentAt: number;
  endedAt: number;
}

export interface PostedCase {
  nonce: string;
  body: string;
  attempts: Attempt[];
  /** From a 201 answer; undefined otherwise. */
  caseId?: number;
}

export interface LoadOptions {
  targets: Target[];
  path: string;
  rate: number;
  concurrency?: number;
  timeoutMs?: number;
  /** Answers after which the request is tried on the next target (besides no answer at all). */
  retryStatuses?: number[];
  /** Each request starts at the next target in turn, instead of always at the first. */
  alternate?: boolean;
  /**
   * Post to the cases API (`path` is then its URL) with this API token, the payload as the
   * attributes and the nonce as Idempotency-Key, instead of posting the payload to the webhook.
   */
  apiToken?: string;
}

export const CLIENT_TIMEOUT_MS = 10_000;
/** The whole body of a 201 from the webhook. */
const CREATED_BODY = /^\{"case":\{"id":([1-9][0-9]*),"source_type":"Webhook"\}\}$/;
/** The start of a 201 from the cases API (the whole case follows). */
const CASE_BODY = /^\{"case":\{"id":([1-9][0-9]*),"workflow_id":/;
const UNICODE = 'Grüße aus Köln, 東京, naïve café, emoji 🚀🧪, עברית, e\u0301, \u2028 end';

/** Numbers a JavaScript double cannot hold, which must come back digit for digit. */
export const EXACT_NUMBERS = ['12345678901234567890123', '0.1000000000000000055511151231257827'];

/** About 1 KB of JSON with a unique nonce, a number beyond 2^53, a long decimal and unicode. */
export function payload(nonce: string, seq: number): string {
  const [big, decimal] = EXACT_NUMBERS;
  const head = `{"nonce":"${nonce}","seq":${seq},"big":${big},"decimal":${decimal},"text":${JSON.stringify(UNICODE)},"nested":{"list":[1,2.5,-0.0,true,null,"ü"],"deep":{"k":"v"}},"filler":"`;
  return `${head}${'x'.repeat(Math.max(0, 1024 - head.length - 2))}"}`;
}

export class Load {
  readonly posted: PostedCase[] = [];
  /** What a 201 answer's body looks like; its first group is the case id. */
  readonly createdBody: RegExp;
  private readonly agent = new http.Agent({ keepAlive: true });
  private readonly timeoutMs: number;
  private readonly interval: number;
  private nextSlot = performance.now();
  private stopped = false;
  private readonly loops: Promise<void>[];
  private readonly pending = new Map<string, number>();

  constructor(private readonly options: LoadOptions) {
    this.timeoutMs = options.timeoutMs ?? CLIENT_TIMEOUT_MS;
    this.createdBody = options.apiToken ? CASE_BODY : CREATED_BODY;
    this.interval = 1000 / options.rate;
    this.loops = Array.from({ length: options.concurrency ?? 8 }, () => this.loop());
  }

  /** Stops sending and waits for every request in flight to end (again: at once). */
  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.loops);
    this.agent.destroy();
  }

  /**
   * A few concurrent reads of a case (each runs a query), so the target's connection pool is
   * open like an instance's that served traffic. Not /readyz: one check a second serves every probe.
   */
  static async warmUp(target: Target, workflowId: number, apiToken: string, concurrency = 8): Promise<void> {
    const url = `http://127.0.0.1:${target.port}/api/external/v1/workflows/${workflowId}/cases/1`;
    await Promise.all(Array.from({ length: concurrency }, () => fetch(url, { headers: { authorization: `Bearer ${apiToken}` } }).then((res) => res.arrayBuffer())));
  }

  attempts(): Attempt[] {
    return this.posted.flatMap((p) => p.attempts);
  }

  /** Requests whose case was created (answered 201). */
  created(): PostedCase[] {
    return this.posted.filter((p) => p.caseId !== undefined);
  }

  /** Requests sent to this target and not ended yet. */
  inFlight(target: string): number {
    return this.pending.get(target) ?? 0;
  }

  /** A target restarted on another port: requests go there from now on. */
  moveTarget(name: string, port: number): void {
    this.options.targets.find((t) => t.name === name)!.port = port;
  }

  /** The highest case id answered so far. */
  maxCaseId(): number {
    return this.posted.reduce((max, p) => Math.max(max, p.caseId ?? 0), 0);
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      const at = Math.max(this.nextSlot, performance.now());
      this.nextSlot = at + this.interval;
      await sleep(at - performance.now());
      if (this.stopped) return;
      await this.postOne();
    }
  }

  private async postOne(): Promise<void> {
    const nonce = randomUUID();
    const posted: PostedCase = { nonce, body: payload(nonce, this.posted.length), attempts: [] };
    const { targets, alternate, apiToken } = this.options;
    const first = alternate ? this.posted.length % targets.length : 0;
    this.posted.push(posted);
    const body = apiToken ? `{"subject":"load","attributes":${posted.body}}` : posted.body;
    const headers: Record<string, string> = apiToken ? { authorization: `Bearer ${apiToken}`, 'idempotency-key': nonce } : {};
    for (const target of [...targets.slice(first), ...targets.slice(0, first)]) {
      this.pending.set(target.name, this.inFlight(target.name) + 1);
      const attempt = await this.send(target, body, headers);
      this.pending.set(target.name, this.inFlight(target.name) - 1);
      posted.attempts.push(attempt);
      if (attempt.outcome === 'response' && attempt.status === 201) {
        const id = this.createdBody.exec(attempt.text ?? '')?.[1];
        if (id) posted.caseId = Number(id);
      }
      if (!this.turnedAway(attempt)) return;
    }
  }

  /** No answer at all, or an answer that says "go elsewhere". */
  private turnedAway(attempt: Attempt): boolean {
    if (attempt.outcome === 'refused' || attempt.outcome === 'dropped') return true;
    return attempt.outcome === 'response' && (this.options.retryStatuses ?? []).includes(attempt.status!);
  }

  private send(target: Target, body: string, headers: Record<string, string>): Promise<Attempt> {
    const sentAt = performance.now();
    return new Promise<Attempt>((resolve) => {
      let settled = false;
      let responded = false;
      const end = (fields: Omit<Attempt, 'target' | 'sentAt' | 'endedAt'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ target: target.name, sentAt, endedAt: performance.now(), ...fields });
      };
      const request = http.request(
        {
          host: '127.0.0.1',
          port: target.port,
          method: 'POST',
          path: this.options.path,
          agent: this.agent,
          headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (response) => {
          responded = true;
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => end({ outcome: 'response', status: response.statusCode, text: Buffer.concat(chunks).toString('utf8') }));
          response.on('error', (err) => end({ outcome: 'broken', status: response.statusCode, error: describe(err) }));
          response.on('aborted', () => end({ outcome: 'broken', status: response.statusCode, error: 'response aborted' }));
        },
      );
      const timer = setTimeout(() => {
        end({ outcome: 'timeout', error: `no complete response within ${this.timeoutMs} ms` });
        request.destroy();
      }, this.timeoutMs);
      request.on('error', (err: NodeJS.ErrnoException) => {
        if (responded) end({ outcome: 'broken', error: describe(err) });
        else end({ outcome: err.code === 'ECONNREFUSED' ? 'refused' : 'dropped', error: describe(err) });
      });
      request.end(body);
    });
  }
}

function describe(err: NodeJS.ErrnoException): string {
  return err.code ? `${err.code}: ${err.message}` : err.message;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));

import type { FastifyInstance } from 'fastify';
import { AcquireAbandonedError, Semaphore } from '../concurrency/semaphore.js';
import { jsonText } from './json-body-parser.js';

/**
 * A body larger than this is read only within the budget; others (nearly all) pass freely, and so
 * does every body of a route that takes no more (the form routes' 64 KB).
 */
export const LARGE_BODY_BYTES = 65_536;

/**
 * Bytes of large bodies the process reads and handles at once. A 1 MB body is held several times
 * over while it is read, decoded, parsed, kept as exact text and sent to Postgres, mostly in
 * Buffers and external strings outside the V8 heap. With 64 senders of 1 MB bodies (the bench's
 * big-body part) the API peaked at 446 MB without a budget and 323-335 MB with 16 MiB. After the
 * bench's HTTP scenarios (which leave the process at ~220 MB), with the collections below and
 * start:prod's malloc settings: 269-286 MB with 4 MiB at ~36 bodies a second, 242-276 MB with
 * 2 MiB at ~27-30, 213-224 MB with 1 MiB at ~18, one 1 MB body at a time (docs/tail-latency.md,
 * "Large bodies and memory"). The senders waiting meanwhile hold no memory.
 */
const BODY_BYTES_IN_FLIGHT = 1_048_576;

/**
 * After each budget's worth of large bodies, the process asks V8 for a full collection. A body's
 * copies outside the heap (socket chunks, the joined bytes, its text, the Postgres message) are
 * freed only when the small heap objects owning them are collected; they live long enough (tens
 * to hundreds of ms in Postgres) to reach the old generation, and V8 lets such memory grow by
 * 64 MB before it collects on its own: at ~5 MB of copies per 1 MB body, that is a dozen bodies.
 * A collection costs a few ms and runs only while large bodies arrive.
 */
export const COLLECT_AFTER_LARGE_BODY_BYTES = BODY_BYTES_IN_FLIGHT;

export interface BodyBudgetOptions {
  budget?: Semaphore;
  /** Runs after every COLLECT_AFTER_LARGE_BODY_BYTES of large bodies; by default a full V8 collection when `--expose-gc` is on (start:prod), else nothing. */
  collectGarbage?: () => void;
}

/**
 * Holds back a request with a large body before its body is read, until the bytes in flight leave
 * room. A body is charged what its route can accept of it: its Content-Length up to the route's
 * body limit (a longer one is a 413 before it is read), or that limit when it is chunked; so a
 * post to a route that takes 64 KB never holds the budget large webhook bodies need. It runs as the
 * body is about to be read, after the rate limits and credential checks (onRequest hooks), so a
 * request refused there never holds a share. Waiting costs nothing but the open connection: the
 * bytes stay in the socket. A sender who gives up is dropped from the queue; one who waits past
 * the server's request timeout gets its 408 from Node.
 */
export function registerBodyBudget(fastify: FastifyInstance, options: BodyBudgetOptions = {}): void {
  const budget = options.budget ?? new Semaphore(BODY_BYTES_IN_FLIGHT);
  const collectGarbage = options.collectGarbage ?? collectWithV8;
  let bytesSinceCollection = 0;
  const handled = (bytes: number) => {
    bytesSinceCollection += bytes;
    if (bytesSinceCollection < COLLECT_AFTER_LARGE_BODY_BYTES) return;
    bytesSinceCollection = 0;
    collectGarbage();
  };
  fastify.addHook('preParsing', (request, reply, payload, done) => {
    const bytes = declaredBodyBytes(request.headers['content-length'], request.headers['transfer-encoding'], request.routeOptions.bodyLimit);
    if (bytes <= LARGE_BODY_BYTES) return done(null, payload);
    const gone = new AbortController();
    const giveUp = () => gone.abort();
    reply.raw.once('close', giveUp);
    budget.acquire(bytes, gone.signal).then(
      (release) => {
        reply.raw.off('close', giveUp);
        // Only a body read to its end counts towards the next collection, at its real size: a
        // declared length alone (a GET, a 413, a sender who hangs up) costs none. Fastify has
        // checked that a Content-Length body is as long as declared; a chunked one is its text.
        let read = false;
        payload.once('end', () => (read = true));
        reply.raw.once('close', () => {
          release();
          if (read) handled(request.headers['content-length'] !== undefined ? bytes : Math.min(bytes, jsonText(request)?.length ?? 0));
        });
        done(null, payload);
      },
      (err: unknown) => {
        // The connection closed while the request waited: there is no one left to answer.
        if (!(err instanceof AcquireAbandonedError)) done(err as Error);
      },
    );
  });
}

/** A full collection, started outside the request that asked for it; nothing when gc is not exposed. */
function collectWithV8(): void {
  void globalThis.gc?.({ type: 'major', execution: 'async' });
}

/** What a body will cost at most: its declared length, or the route's limit when it is chunked. */
function declaredBodyBytes(contentLength: string | undefined, transferEncoding: string | undefined, limit: number): number {
  if (contentLength !== undefined) {
    const length = Number(contentLength);
    return Number.isFinite(length) ? Math.min(length, limit) : 0;
  }
  return transferEncoding === undefined ? 0 : limit;
}

import type { FastifyInstance } from 'fastify';
import { AcquireAbandonedError, Semaphore } from '../concurrency/semaphore.js';
import { MAX_BODY_BYTES } from './json-body-parser.js';

/** A body this large or larger is read only within the budget; smaller ones (nearly all) pass freely. */
export const LARGE_BODY_BYTES = 65_536;

/**
 * Bytes of large bodies the process reads and handles at once. A 1 MB body is held several times
 * over while it is read, decoded, parsed, kept as exact text and sent to Postgres. Measured with
 * the bench's big-body part (64 senders of 1 MB bodies, API at 175 MB before): 446 MB peak RSS
 * without a budget (and it grows with every sender), 328 MB with 16 MiB, 325 MB with 8 MiB and
 * 281 MB with 1 MiB, the rest being the heap's own growth; throughput 56, 48, 46 and 32 req/s
 * (Postgres writes such bodies slowly). 16 MiB bounds memory at nearly no cost in throughput.
 */
export const BODY_BYTES_IN_FLIGHT = 16 * 1_048_576;

/**
 * Holds back a request with a large body (by its Content-Length; a chunked one counts as the
 * largest allowed) before its body is read, until the bytes in flight leave room. It runs as the
 * body is about to be read, after the rate limits and credential checks (onRequest hooks), so a
 * request refused there never holds a share. Waiting costs nothing but the open connection: the
 * bytes stay in the socket. A sender who gives up is dropped from the queue; one who waits past
 * the server's request timeout gets its 408 from Node.
 */
export function registerBodyBudget(fastify: FastifyInstance, budget = new Semaphore(BODY_BYTES_IN_FLIGHT)): void {
  fastify.addHook('preParsing', (request, reply, payload, done) => {
    const bytes = declaredBodyBytes(request.headers['content-length'], request.headers['transfer-encoding']);
    if (bytes < LARGE_BODY_BYTES) return done(null, payload);
    const gone = new AbortController();
    const giveUp = () => gone.abort();
    reply.raw.once('close', giveUp);
    budget.acquire(bytes, gone.signal).then(
      (release) => {
        reply.raw.off('close', giveUp);
        reply.raw.once('close', release);
        done(null, payload);
      },
      (err: unknown) => {
        // The connection closed while the request waited: there is no one left to answer.
        if (!(err instanceof AcquireAbandonedError)) done(err as Error);
      },
    );
  });
}

/** What a body will cost at most: its declared length, or the limit when it is chunked. */
function declaredBodyBytes(contentLength: string | undefined, transferEncoding: string | undefined): number {
  if (contentLength !== undefined) {
    const length = Number(contentLength);
    return Number.isFinite(length) ? Math.min(length, MAX_BODY_BYTES) : 0;
  }
  return transferEncoding === undefined ? 0 : MAX_BODY_BYTES;
}

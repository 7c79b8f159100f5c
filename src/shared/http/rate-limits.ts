import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Env } from '../config/env.js';
import { RateLimitedError } from '../errors/app-error.js';
import { clientAddressGroup } from '../net/ip-address.js';
import type { RedisConnection } from '../redis/redis.client.js';
import { type Count, WindowCounters } from './rate-limit-counters.js';
import { presentedSecret, secretHash } from './route-credentials.js';

const WINDOW_MS = 60_000;
/** How often a process settles its counts with Redis (see WindowCounters). */
const RATE_LIMIT_SETTLE_MS = 100;
/** Keys (addresses and credentials) one process counts at once before it settles each request of a new one with Redis. */
const MAX_COUNTED_KEYS = 50_000;
/**
 * Adds to a key's count, starts its window when it has none (a single key, so also on a
 * cluster), and answers the count with the window's milliseconds left.
 */
const SETTLE_LUA = `
  local n = redis.call('INCRBY', KEYS[1], ARGV[1])
  local ttl = redis.call('PTTL', KEYS[1])
  if ttl < 0 then
    redis.call('PEXPIRE', KEYS[1], ARGV[2])
    ttl = tonumber(ARGV[2])
  end
  return {n, ttl}`;

/** Probes and scrapes are never limited. */
const UNLIMITED = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * The credential the request's route authenticates with, hashed: keys in Redis never hold a
 * secret. Derived from the route, not from whichever header is present, so a webhook sender
 * adding a random `Authorization` header is still counted under its `?token=`.
 */
function credentialKey(request: FastifyRequest): string | undefined {
  // Asked for by more than one window of the same request: hashed once.
  if (credentialKeys.has(request)) return credentialKeys.get(request);
  const secret = presentedSecret(request);
  const key = secret === undefined ? undefined : secretHash(request, secret).toString('base64url').slice(0, 32);
  credentialKeys.set(request, key);
  return key;
}
const credentialKeys = new WeakMap<FastifyRequest, string | undefined>();

interface SettlingRedis {
  settleRateLimit(key: string, n: number, windowMs: number): Promise<[number, number]>;
}

/** A post to a hosted request form: besides its sender's windows, it counts in its form's. */
const isFormPost = (request: FastifyRequest) => request.method === 'POST' && request.routeOptions.config?.credential?.kind === 'form';

/**
 * Fixed one-minute windows shared through Redis, so limits hold across instances: one per
 * source address (`request.ip`: behind TRUST_PROXY, the right-most untrusted X-Forwarded-For
 * entry; an IPv6 client's whole /64; also stops anyone spraying random tokens), one per
 * credential, and one per hosted request form for the posts to it (whoever sends them). Each
 * process counts in memory and settles with Redis every RATE_LIMIT_SETTLE_MS (WindowCounters), so
 * a request costs no Redis round trip; across N instances a limit lets in at most N times its
 * value in the worst case, and about one settle interval of the other instances' requests more in
 * practice. A limited caller gets 429 with Retry-After and is let in again when its window ends;
 * nothing blocks for longer. While Redis is unavailable, callers it never counted are not
 * limited: intake does not depend on Redis.
 */
export async function registerRateLimits(fastify: FastifyInstance, env: Env, redis: RedisConnection): Promise<void> {
  redis.defineCommand('settleRateLimit', { numberOfKeys: 1, lua: SETTLE_LUA });
  const prefix = `${env.REDIS_PREFIX}:rate-limit:`;
  const settle = async (key: string, n: number, windowMs: number): Promise<Count> => {
    const [current, ttl] = await (redis as unknown as SettlingRedis).settleRateLimit(prefix + key, n, windowMs);
    return { current, ttl };
  };
  const counters = new WindowCounters(settle, {
    windowMs: WINDOW_MS,
    settleMs: RATE_LIMIT_SETTLE_MS,
    maxKeys: MAX_COUNTED_KEYS,
  });
  fastify.addHook('onClose', () => counters.close());
  // Each window with the requests it counts, so a request counts only in its own windows.
  const windows: Window[] = [];
  if (env.RATE_LIMIT_PER_ADDRESS > 0) {
    windows.push({ max: env.RATE_LIMIT_PER_ADDRESS, key: (r) => `address:${clientAddressGroup(r.ip)}`, counts: () => true });
  }
  if (env.RATE_LIMIT_PER_CREDENTIAL > 0) {
    windows.push({ max: env.RATE_LIMIT_PER_CREDENTIAL, key: (r) => `credential:${credentialKey(r)}`, counts: (r) => credentialKey(r) !== undefined });
  }
  if (env.FORM_POSTS_PER_MINUTE > 0) {
    windows.push({ max: env.FORM_POSTS_PER_MINUTE, key: (r) => `form-posts:${credentialKey(r)}`, counts: isFormPost });
  }
  if (!windows.length) return;
  // All windows are counted at once; only the first request of a key in a window waits for Redis,
  // so the hook answers the others without a promise (it is on every request).
  fastify.addHook('onRequest', (request, _reply, done) => {
    if (UNLIMITED.has(pathOf(request.url))) return done();
    let exceeded = -1;
    let pending: Promise<number>[] | undefined;
    for (const window of windows) {
      if (!window.counts(request)) continue;
      const key = window.key(request);
      const count = counters.countHere(key);
      if (count === undefined) (pending ??= []).push(counters.increment(key).then((c) => waitSeconds(c, window.max), notCounted));
      else exceeded = Math.max(exceeded, waitSeconds(count, window.max));
    }
    if (!pending) return done(refusal(exceeded));
    Promise.all(pending).then((waits) => done(refusal(Math.max(exceeded, ...waits))), done);
  });
}

interface Window {
  max: number;
  key: (request: FastifyRequest) => string;
  counts: (request: FastifyRequest) => boolean;
}

/** The seconds a window's caller must wait, -1 while it is within the window's limit. */
const waitSeconds = (count: Count, max: number) => (count.current > max ? Math.ceil(count.ttl / 1000) : -1);

/** While Redis fails, a key never counted is not limited: intake does not depend on Redis. */
const notCounted = () => -1;

/** Refused until the longest of the exceeded windows ends (never less than a second); undefined lets the request in. */
const refusal = (wait: number) => (wait < 0 ? undefined : new RateLimitedError(Math.max(wait, 1)));

const pathOf = (url: string) => {
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
};

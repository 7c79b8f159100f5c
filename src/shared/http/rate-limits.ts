import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import type { Env } from '../config/env.js';
import { RateLimitedError } from '../errors/app-error.js';
import type { RedisConnection } from '../redis/redis.client.js';
import { presentedSecret } from './route-credentials.js';

const WINDOW_MS = 60_000;
/** Probes and scrapes are never limited. */
const UNLIMITED = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * The credential the request's route authenticates with, hashed: keys in Redis never hold a
 * secret. Derived from the route, not from whichever header is present, so a webhook sender
 * adding a random `Authorization` header is still counted under its `?token=`.
 */
function credentialKey(request: FastifyRequest): string | undefined {
  const secret = presentedSecret(request);
  return secret === undefined ? undefined : createHash('sha256').update(secret).digest('base64url').slice(0, 32);
}

/**
 * Two fixed one-minute windows in Redis, so limits hold across instances: one per source
 * address (`request.ip`: behind TRUST_PROXY, the right-most untrusted X-Forwarded-For entry;
 * also stops anyone spraying random tokens) and one per credential. A limited caller
 * gets 429 with Retry-After and is let in again when its window ends; nothing blocks for
 * longer. While Redis is unavailable requests are not limited: intake does not depend on Redis.
 */
export async function registerRateLimits(fastify: FastifyInstance, env: Env, redis: RedisConnection): Promise<void> {
  await fastify.register(rateLimit, {
    global: false,
    redis,
    nameSpace: `${env.REDIS_PREFIX}:rate-limit:`,
    skipOnError: true,
    timeWindow: WINDOW_MS,
  });
  const checks: ReturnType<FastifyInstance['createRateLimit']>[] = [];
  if (env.RATE_LIMIT_PER_ADDRESS > 0) {
    checks.push(fastify.createRateLimit({ max: env.RATE_LIMIT_PER_ADDRESS, keyGenerator: (r) => `address:${r.ip}` }));
  }
  if (env.RATE_LIMIT_PER_CREDENTIAL > 0) {
    checks.push(fastify.createRateLimit({ max: env.RATE_LIMIT_PER_CREDENTIAL, keyGenerator: (r) => `credential:${credentialKey(r)}`, allowList: (r) => credentialKey(r) === undefined }));
  }
  if (!checks.length) return;
  // Both windows are counted in one round of Redis commands, sent together.
  fastify.addHook('onRequest', async (request) => {
    if (UNLIMITED.has(request.url.split('?')[0]!)) return;
    const verdicts = await Promise.all(checks.map((check) => check(request)));
    const exceeded = verdicts.flatMap((v) => (!v.isAllowed && v.isExceeded ? [v.ttlInSeconds] : []));
    if (!exceeded.length) return;
    throw new RateLimitedError(Math.max(...exceeded, 1));
  });
}

import type { FastifyInstance, FastifyReply } from 'fastify';
import { sendError, toErrorResponse } from '../http-errors/error-response.js';
import type { Logger } from 'pino';
import type { Histogram } from 'prom-client';
import { cidrList } from '../config/cidr-list.js';
import type { Env } from '../config/env.js';
import { registerBodyBudget } from './body-budget.js';
import { registerFormBodyParser } from './form-body-parser.js';
import { MAX_BODY_BYTES, registerJsonBodyParser } from './json-body-parser.js';

/**
 * Fastify's own options: the body limit is the contract's 1 MB for every route. `request.ip`
 * (the per-address rate limit, the request log) is the socket address, or behind the load
 * balancers named in TRUST_PROXY the right-most address of X-Forwarded-For they did not add.
 */
export const fastifyOptions = (env: Pick<Env, 'TRUST_PROXY'>) => ({
  trustProxy: env.TRUST_PROXY === undefined ? false : cidrList(env.TRUST_PROXY),
  bodyLimit: MAX_BODY_BYTES,
  logger: false,
  // No Nest middleware exists (guards and Fastify hooks do that work), so @fastify/middie, whose
  // hook would run an empty middleware chain on every request, is not registered. A Nest
  // middleware added one day needs this line gone.
  skipMiddie: true,
  // During a graceful stop, requests on connections already open are still served, not refused.
  return503OnClosing: false,
  forceCloseConnections: 'idle' as const,
  requestTimeout: 30_000,
  routerOptions: { maxParamLength: 200 },
  /** Errors raised before routing (a malformed URL) get the same JSON body, never an echo of the URL. */
  frameworkErrors: (error: Error, _request: unknown, reply: FastifyReply) => sendError(reply, toErrorResponse(error)),
});

/**
 * Wires the Fastify instance: the JSON body parser, the form body parser (for the routes that
 * declare `formBody`), and one log line and one latency
 * observation per request, naming the route pattern, never the URL (webhook URLs carry a token). Errors Fastify raises before a
 * handler runs (body too large, unsupported media type) reach Nest's exception layer and so
 * the same AllErrorsFilter as everything else.
 */
export function setUpFastify(fastify: FastifyInstance, logger: Logger, latency: Histogram<'method' | 'route' | 'status'>): void {
  registerBodyBudget(fastify);
  registerJsonBodyParser(fastify);
  registerFormBodyParser(fastify);
  fastify.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const { method } = request;
    const status = reply.statusCode;
    // The log line's object is not even built when the level leaves it out (production logs at warn).
    if (logger.isLevelEnabled('info')) logger.info({ method, route, address: request.ip, status, ms: Math.round(reply.elapsedTime * 10) / 10 }, 'request');
    latency.observe({ method, route, status }, reply.elapsedTime / 1000);
    done();
  });
}

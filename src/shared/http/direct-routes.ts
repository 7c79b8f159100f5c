import type { INestApplicationContext, Type } from '@nestjs/common';
import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { admitRequest } from './authenticated-requests.js';

/** A handler Fastify calls itself: what it returns is the reply's body. */
type DirectHandler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

interface DirectTarget {
  controller: Type<unknown>;
  handler: DirectHandler;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    direct?: DirectTarget;
  }
}

/**
 * `@DirectRoute()` on a controller method of the hottest routes (the incoming webhook): Fastify
 * calls the method itself with `(request, reply)`, where a Nest route first builds its execution
 * context and runs guards, pipes, interceptors and parameter decorators, about a fifth of a
 * webhook request's CPU (docs/tail-latency.md, "A webhook request's CPU").
 *
 * What still holds: the route is declared, documented and authenticated as any other (the
 * credential hook checks it before the body is read, and the request is admitted exactly as
 * CredentialGuard admits it); whatever the method throws reaches AllErrorsFilter through
 * Fastify's error handler, which Nest installs. What does not: Nest's decorators on the method
 * besides the route's own (no `@Header`, no parameter decorators, no pipes), so the method sets
 * its headers and reads what its credential proved (`requiredProof`) itself. Put it above
 * `@RouteConfig`, which replaces the route config it is written into.
 */
export function DirectRoute(): MethodDecorator {
  return (target, _key, descriptor) => {
    const handler = descriptor.value as unknown as DirectHandler;
    const config = (Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler) ?? {}) as Record<string, unknown>;
    const direct: DirectTarget = { controller: target.constructor as Type<unknown>, handler };
    Reflect.defineMetadata(FASTIFY_ROUTE_CONFIG_METADATA, { ...config, direct }, handler);
  };
}

/**
 * Gives every route declared with `@DirectRoute()` its method as Fastify handler, as Nest
 * registers it. Call it before `app.init()`, which registers the routes.
 */
export function serveDirectRoutes(fastify: FastifyInstance, app: INestApplicationContext): void {
  fastify.addHook('onRoute', (route) => {
    const direct = route.config?.direct;
    if (!direct) return;
    const declared = route.config?.credential;
    let controller: unknown;
    route.handler = async function directHandler(request, reply) {
      admitRequest(request, declared);
      controller ??= app.get(direct.controller);
      return direct.handler.call(controller, request, reply);
    };
  });
}

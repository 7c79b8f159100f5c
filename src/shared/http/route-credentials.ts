import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * The credential a route authenticates with. Controllers declare it (`@RequiresToken`,
 * `@RequiresWebhookToken`, `@RequiresOperatorToken`, `@RequiresFormSecret`), which puts it in
 * the Fastify route config, so that both the credential check and the per-credential rate limit
 * can read it before the body is read.
 */
export type RouteCredential = { kind: 'bearer'; scope: string } | { kind: 'webhook' } | { kind: 'operator' } | { kind: 'form' };

declare module 'fastify' {
  interface FastifyContextConfig {
    credential?: RouteCredential;
  }
  interface FastifyRequest {
    /** Set once the route's credential was checked; the route's guard lets nothing else in. */
    authenticatedBy?: RouteCredential['kind'];
  }
}

/**
 * Checks one kind of credential and stores what it found on the request (the principal, the
 * webhook's or the form's workflow); every failure throws the route's error (401, or 404 for a
 * disabled API or an unknown form).
 */
export interface CredentialCheck<C extends RouteCredential> {
  authenticate(request: FastifyRequest, credential: C): Promise<void> | void;
}

export type CredentialChecks = { [K in RouteCredential['kind']]: CredentialCheck<Extract<RouteCredential, { kind: K }>> };

/**
 * Records `credential` in the route config of the decorated handler, or of every handler of the
 * decorated controller (a handler's own declaration wins). Nest copies route config only from
 * handlers, so a class-level declaration is spread onto its methods here.
 */
export function RequiresCredential(credential: RouteCredential): ClassDecorator & MethodDecorator {
  return (target: object, key?: string | symbol, descriptor?: PropertyDescriptor) => {
    if (descriptor) {
      declare(descriptor.value as object, credential, true);
      return;
    }
    const prototype = (target as { prototype: Record<string, unknown> }).prototype;
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const method = prototype[name];
      if (name !== 'constructor' && typeof method === 'function') declare(method, credential, false);
    }
  };
}

function declare(handler: object, credential: RouteCredential, override: boolean): void {
  const config = (Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler) ?? {}) as { credential?: RouteCredential };
  if (config.credential && !override) return;
  Reflect.defineMetadata(FASTIFY_ROUTE_CONFIG_METADATA, { ...config, credential }, handler);
}

/**
 * Authenticates every request whose route declares a credential, in an onRequest hook: it runs
 * before the body is read (Nest guards run only after Fastify parsed it), so a caller with a bad
 * credential gets its 401 without the service reading or parsing up to 1 MB. Registered after the
 * rate limits, so a sprayer of random tokens is limited before it costs a look-up.
 */
export function registerCredentialChecks(fastify: FastifyInstance, checks: CredentialChecks): void {
  fastify.addHook('onRequest', async (request) => {
    const credential = request.routeOptions.config?.credential;
    if (!credential) return;
    await (checks[credential.kind] as CredentialCheck<RouteCredential>).authenticate(request, credential);
    request.authenticatedBy = credential.kind;
  });
}

/** Reads `Authorization: Bearer <secret>`; anything else is treated as no credential. */
export function bearerSecret(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/** The webhook token of the URL (`?token=`); the Authorization header plays no part on the webhook. */
export function webhookSecret(request: FastifyRequest): string | undefined {
  const token = (request.query as { token?: unknown } | undefined)?.token;
  return typeof token === 'string' && token !== '' ? token : undefined;
}

/** The secret of a form route's own path (`/forms/<secret>`). */
export function formSecret(request: FastifyRequest): string | undefined {
  const secret = (request.params as { secret?: unknown } | undefined)?.secret;
  return typeof secret === 'string' && secret !== '' ? secret : undefined;
}

/** The secret the request's route authenticates with, whatever other credential-like headers it carries. */
export function presentedSecret(request: FastifyRequest): string | undefined {
  const credential = request.routeOptions.config?.credential;
  if (!credential) return undefined;
  if (credential.kind === 'form') return formSecret(request);
  return credential.kind === 'webhook' ? webhookSecret(request) : bearerSecret(request);
}

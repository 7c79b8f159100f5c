import { SetMetadata, UseGuards } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants.js';
import type { FastifyRequest } from 'fastify';
import { sha256 } from '../crypto/sha256.js';
import { CredentialGuard } from './authenticated-requests.js';
import type { Role } from './roles.js';
import { anySessionCookie } from './session-cookie.js';

/**
 * The credential a route authenticates with. Controllers declare it (`@RequiresToken`, `@RequiresRole`,
 * `@RequiresWebhookToken`, `@RequiresOperatorToken`, `@RequiresFormSecret`, or
 * RequiresCredential itself), which puts it in the Fastify route config, so that the credential
 * check, the per-credential rate limit and the route's guard all read the one declaration.
 */
export type RouteCredential =
  | { kind: 'bearer'; scope: string }
  /**
   * Every route of the admin API: an admin token (role `admin`) or a signed-in person's session,
   * whose role must be at least `role` (test/architecture/route-credentials.spec.ts).
   */
  | { kind: 'admin'; role: Role }
  | { kind: 'webhook' }
  | { kind: 'operator' }
  | { kind: 'form' }
  | { kind: 'metrics' }
  /** An extension's case source checks the caller itself (CaseSourceDefinition.authenticate). */
  | { kind: 'source'; sourceType: string };

declare module 'fastify' {
  interface FastifyContextConfig {
    credential?: RouteCredential;
  }
}

/**
 * Checks one kind of credential and answers what it proved (the caller, the webhook's or the
 * form's workflow; nothing for a shared secret); every failure throws the route's error (401, or
 * 404 for a disabled API or an unknown form). The answer reaches handlers through the typed
 * parameter decorators of `proofParameter`, never through the request object.
 */
export interface CredentialCheck<C extends RouteCredential, P = void> {
  authenticate(request: FastifyRequest, credential: C): Promise<P> | P;
}

/** Marks a controller or handler that takes no credential at all, so that it says so. */
export const PUBLIC_ROUTE = 'public-route';

/**
 * `@Public()`: the route is open to anyone, on purpose. Every route either declares a
 * credential or this (test/architecture/route-credentials.spec.ts).
 */
export const Public = () => SetMetadata(PUBLIC_ROUTE, true);

/**
 * The one declaration of a route's credential: records `credential` in the route config of the
 * decorated handler, or of every handler of the decorated controller (a handler's own
 * declaration wins), and applies the guard that enforces it. Nest copies route config only from
 * handlers, so a class-level declaration is spread onto its methods here.
 */
export function RequiresCredential(credential: RouteCredential): ClassDecorator & MethodDecorator {
  return (target: object, key?: string | symbol, descriptor?: PropertyDescriptor) => {
    if (descriptor) {
      declare(descriptor.value as object, credential, true);
      UseGuards(CredentialGuard)(target, key!, descriptor);
      return;
    }
    UseGuards(CredentialGuard)(target as () => void);
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
  // The OpenAPI document names each admin operation's least role, so that clients (the dashboard's generated role map) show only what the caller may do.
  if (credential.kind === 'admin') ApiExtension(REQUIRED_ROLE_EXTENSION, credential.role)({}, 'handler', { value: handler });
}

/** The OpenAPI extension of an admin operation that holds the least role its route requires. */
export const REQUIRED_ROLE_EXTENSION = 'x-required-role';

/**
 * `@RequiresRole('editor')` on an admin controller or handler: an admin token (role `admin`) or
 * the session of a person whose role is at least this one gets in; anyone else known gets 403.
 */
export const RequiresRole = (role: Role) => RequiresCredential({ kind: 'admin', role });

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

/**
 * The SHA-256 of a secret the request presented, hashed once per request: the per-credential
 * rate limit and the route's credential check both need it.
 */
export function secretHash(request: FastifyRequest, secret: string): Buffer {
  const known = secretHashes.get(request);
  if (known?.secret === secret) return known.hash;
  const hash = sha256(secret);
  secretHashes.set(request, { secret, hash });
  return hash;
}
const secretHashes = new WeakMap<FastifyRequest, { secret: string; hash: Buffer }>();

/** The secret the request's route authenticates with, whatever other credential-like headers it carries. */
export function presentedSecret(request: FastifyRequest): string | undefined {
  const credential = request.routeOptions.config?.credential;
  if (!credential) return undefined;
  if (credential.kind === 'form') return formSecret(request);
  // Whatever a source's callers present is the source's own business: they are limited by address.
  if (credential.kind === 'source') return undefined;
  if (credential.kind === 'admin') return bearerSecret(request) ?? anySessionCookie(request);
  return credential.kind === 'webhook' ? webhookSecret(request) : bearerSecret(request);
}

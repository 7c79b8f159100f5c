import { type CanActivate, createParamDecorator, type ExecutionContext, Injectable } from '@nestjs/common';
import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isDeepStrictEqual } from 'node:util';
import { type AppError, NotFoundError, UnauthorizedError } from '../errors/app-error.js';
import { checkBodylessRequest } from './json-body-parser.js';
import type { CredentialCheck, RouteCredential } from './route-credentials.js';

export type CredentialChecks = { [K in RouteCredential['kind']]: CredentialCheck<Extract<RouteCredential, { kind: K }>, unknown> };

/**
 * What the credential hook proved about each request, kept here rather than on the request
 * object: controllers get it through the typed parameter decorators of `proofParameter`, never
 * from a request field. A WeakMap, so a finished request takes its entry along.
 */
const proofs = new WeakMap<FastifyRequest, { credential: RouteCredential; proof: unknown }>();

/** Runs the route's check and remembers what it proved for `credential`; a failed check remembers nothing. */
export async function authenticateRequest<C extends RouteCredential>(request: FastifyRequest, credential: C, check: CredentialCheck<NoInfer<C>, unknown>): Promise<void> {
  proofs.set(request, { credential, proof: await check.authenticate(request, credential) });
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
    if (credential) await authenticateRequest(request, credential, checks[credential.kind] as CredentialCheck<RouteCredential, unknown>);
  });
}

/** The credential a handler declares (RequiresCredential), read from the route config Fastify is given. */
export function declaredCredential(handler: object): RouteCredential | undefined {
  return (Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler) as { credential?: RouteCredential } | undefined)?.credential;
}

/** Each handler's declared credential, read from its metadata once. */
const declarations = new WeakMap<object, RouteCredential | undefined>();

/** What a route answers a caller it does not let in: a form that does not exist is a page that does not. */
function refusal(kind: RouteCredential['kind'] | undefined): AppError {
  if (kind === 'form') return new NotFoundError('form');
  return kind === 'webhook' ? new UnauthorizedError('invalid webhook URL') : new UnauthorizedError();
}

/**
 * Lets in only a request the hook authenticated for exactly the credential `declared`, and fails
 * closed on a route that declares none: the one place where anything added to a declaration
 * later (a role, a permission) is enforced. A pending signature check of a request that sent no
 * body runs here, since no parser ran for it.
 */
export function admitRequest(request: FastifyRequest, declared: RouteCredential | undefined): void {
  const found = proofs.get(request);
  // Compared by value: a request authenticated for one scope is not in on a route of another.
  // (The hook's credential is usually this very declaration, which Fastify was given.)
  if (!declared || !found || (found.credential !== declared && !isDeepStrictEqual(found.credential, declared))) throw refusal(declared?.kind);
  checkBodylessRequest(request);
}

/** The one guard of every Nest route that declares a credential (RequiresCredential applies it): admitRequest for the handler's declaration. */
@Injectable()
export class CredentialGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const handler = context.getHandler();
    if (!declarations.has(handler)) declarations.set(handler, declaredCredential(handler));
    admitRequest(context.switchToHttp().getRequest<FastifyRequest>(), declarations.get(handler));
    return true;
  }
}

/** What the hook proved about `request` with a credential of one of `kinds`; undefined when it proved nothing. */
export function proofOf<P>(request: FastifyRequest, ...kinds: RouteCredential['kind'][]): P | undefined {
  const found = proofs.get(request);
  return found && kinds.includes(found.credential.kind) ? (found.proof as P) : undefined;
}

/**
 * What the hook proved about `request` for a route authenticated with `kind` (the caller, the
 * webhook's workflow, the form's target), typed as `P`; a request authenticated otherwise gets
 * the route's refusal, never an undefined value.
 */
export function requiredProof<P>(request: FastifyRequest, ...kinds: [RouteCredential['kind'], ...RouteCredential['kind'][]]): P {
  const proof = proofOf<P>(request, ...kinds);
  if (proof === undefined) throw refusal(kinds[0]);
  return proof;
}

/** A parameter decorator giving the handler `requiredProof` of its request. */
export function proofParameter<P>(...kinds: [RouteCredential['kind'], ...RouteCredential['kind'][]]): () => ParameterDecorator {
  return createParamDecorator((_: unknown, context: ExecutionContext): P => requiredProof<P>(context.switchToHttp().getRequest<FastifyRequest>(), ...kinds));
}

/** The organization the request's credential belongs to (a caller's, a webhook's or a form's workflow's), when its proof names one. */
export function provenOrganization(request: FastifyRequest): number | undefined {
  const proof = proofs.get(request)?.proof;
  if (typeof proof !== 'object' || proof === null || !('organizationId' in proof)) return undefined;
  return typeof proof.organizationId === 'number' ? proof.organizationId : undefined;
}

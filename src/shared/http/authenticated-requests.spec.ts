import 'reflect-metadata';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ExecutionContext } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import type { FastifyRequest } from 'fastify';
import { NotFoundError, UnauthorizedError } from '../errors/app-error.js';
import { authenticateRequest, CredentialGuard, proofOf, proofParameter } from './authenticated-requests.js';
import { type CredentialCheck, RequiresCredential, type RouteCredential } from './route-credentials.js';

const Caller = proofParameter<{ id: number }>('bearer');

@RequiresCredential({ kind: 'bearer', scope: 'admin' })
class Routes {
  list(@Caller() _caller: unknown) {}
  @RequiresCredential({ kind: 'form' })
  page() {}
}

class Undeclared {
  show() {}
}

const request = () => ({ headers: {} }) as FastifyRequest;
const context = (req: FastifyRequest, handler: object) =>
  ({ switchToHttp: () => ({ getRequest: () => req }), getHandler: () => handler }) as unknown as ExecutionContext;
const proving = <P>(proof: P): CredentialCheck<RouteCredential, P> => ({ authenticate: () => proof });
const refusing: CredentialCheck<RouteCredential, never> = {
  authenticate: () => {
    throw new UnauthorizedError();
  },
};

/** What `@Caller()` hands the `list` handler for `req`. */
function callerOf(req: FastifyRequest): unknown {
  const [argument] = Object.values(Reflect.getMetadata(ROUTE_ARGS_METADATA, Routes, 'list') as Record<string, { factory: (data: unknown, ctx: ExecutionContext) => unknown }>);
  return argument!.factory(undefined, context(req, Routes.prototype.list));
}

describe('CredentialGuard', () => {
  const guard = new CredentialGuard();

  it('lets in a request authenticated for exactly the credential its handler declares', async () => {
    const req = request();
    await authenticateRequest(req, { scope: 'admin', kind: 'bearer' }, proving({ id: 7 }));
    assert.equal(guard.canActivate(context(req, Routes.prototype.list)), true);
  });

  it('refuses a request authenticated for another scope or kind, or not at all, with the route\'s refusal', async () => {
    const apiCaller = request();
    await authenticateRequest(apiCaller, { kind: 'bearer', scope: 'api' }, proving({ id: 7 }));
    assert.throws(() => guard.canActivate(context(apiCaller, Routes.prototype.list)), UnauthorizedError);
    assert.throws(() => guard.canActivate(context(apiCaller, Routes.prototype.page)), NotFoundError);
    assert.throws(() => guard.canActivate(context(request(), Routes.prototype.list)), UnauthorizedError);
  });

  it('fails closed on a handler that declares no credential', async () => {
    const req = request();
    await authenticateRequest(req, { kind: 'bearer', scope: 'admin' }, proving({ id: 7 }));
    assert.throws(() => guard.canActivate(context(req, Undeclared.prototype.show)), UnauthorizedError);
  });
});

describe('what a credential proved', () => {
  it('reaches the handler through its parameter decorator, for its own kind only', async () => {
    const req = request();
    await authenticateRequest(req, { kind: 'bearer', scope: 'admin' }, proving({ id: 7 }));
    assert.deepEqual(callerOf(req), { id: 7 });
    assert.equal(proofOf(req, 'webhook'), undefined);
  });

  it('is nothing after a failed check: the decorator refuses rather than hand over undefined', async () => {
    const req = request();
    await assert.rejects(authenticateRequest(req, { kind: 'bearer', scope: 'admin' }, refusing), UnauthorizedError);
    assert.equal(proofOf(req, 'bearer'), undefined);
    assert.throws(() => callerOf(req), UnauthorizedError);
  });
});

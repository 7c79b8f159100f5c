import 'reflect-metadata';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants.js';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';
import { presentedSecret, RequiresCredential, type RouteCredential } from './route-credentials.js';

const configOf = (handler: unknown) => Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler as object) as Record<string, unknown> | undefined;

@RequiresCredential({ kind: 'bearer', scope: 'admin' })
class Controller {
  list() {}
  @RouteConfig({ anyContentType: true })
  receive() {}
  @RequiresCredential({ kind: 'operator' })
  rotate() {}
}

function request(credential: RouteCredential | undefined, headers: Record<string, string>, query: Record<string, unknown> = {}, params: Record<string, unknown> = {}): FastifyRequest {
  return { routeOptions: { config: credential ? { credential } : {} }, headers, query, params } as unknown as FastifyRequest;
}

describe('RequiresCredential', () => {
  it('on a controller, declares the credential on every handler, keeping their own route config', () => {
    assert.deepEqual(configOf(Controller.prototype.list), { credential: { kind: 'bearer', scope: 'admin' } });
    assert.deepEqual(configOf(Controller.prototype.receive), { anyContentType: true, credential: { kind: 'bearer', scope: 'admin' } });
  });

  it("a handler's own declaration wins over its controller's", () => {
    assert.deepEqual(configOf(Controller.prototype.rotate), { credential: { kind: 'operator' } });
  });
});

describe('presentedSecret: the credential the route authenticates with, not whichever is present', () => {
  it('takes the bearer token on bearer and operator routes, ignoring ?token=', () => {
    assert.equal(presentedSecret(request({ kind: 'bearer', scope: 'api' }, { authorization: 'Bearer api_x' }, { token: 'whk_y' })), 'api_x');
    assert.equal(presentedSecret(request({ kind: 'operator' }, { authorization: 'bearer op-secret' })), 'op-secret');
    assert.equal(presentedSecret(request({ kind: 'bearer', scope: 'api' }, {}, { token: 'whk_y' })), undefined);
  });

  it('takes ?token= on the webhook, ignoring the Authorization header', () => {
    assert.equal(presentedSecret(request({ kind: 'webhook' }, { authorization: 'Bearer api_random' }, { token: 'whk_y' })), 'whk_y');
    assert.equal(presentedSecret(request({ kind: 'webhook' }, { authorization: 'Bearer api_random' })), undefined);
    assert.equal(presentedSecret(request({ kind: 'webhook' }, {}, { token: ['whk_a', 'whk_b'] })), undefined);
  });

  it("takes the form's secret from its path, ignoring ?token= and the Authorization header", () => {
    assert.equal(presentedSecret(request({ kind: 'form' }, { authorization: 'Bearer api_x' }, { token: 'whk_y' }, { secret: 'form-secret' })), 'form-secret');
    assert.equal(presentedSecret(request({ kind: 'form' }, { authorization: 'Bearer api_x' }, { token: 'whk_y' })), undefined);
  });

  it('is nothing on a route that declares no credential', () => {
    assert.equal(presentedSecret(request(undefined, { authorization: 'Bearer api_x' }, { token: 'whk_y' })), undefined);
  });
});

import 'reflect-metadata';
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { INestApplicationContext } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants.js';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { UnauthorizedError } from '../errors/app-error.js';
import { sendError, toErrorResponse } from '../http-errors/error-response.js';
import { registerCredentialChecks, requiredProof, type CredentialChecks } from './authenticated-requests.js';
import { DirectRoute, serveDirectRoutes } from './direct-routes.js';
import { RequiresCredential, type RouteCredential } from './route-credentials.js';

@RequiresCredential({ kind: 'webhook' })
class Receiver {
  readonly greeting = 'received';

  @DirectRoute()
  @RouteConfig({ anyContentType: true })
  async receive(request: FastifyRequest, reply: FastifyReply): Promise<string> {
    reply.status(201);
    return `${this.greeting} for ${requiredProof<string>(request, 'webhook')}`;
  }
}

class Undeclared {
  @DirectRoute()
  async receive(): Promise<string> {
    return 'never';
  }
}

const configOf = (handler: object) => Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler) as Record<string, unknown>;

/** A Fastify instance serving `handler` as Nest would register it, with a webhook check that lets in `?token=good`. */
async function serving(controller: object, handler: object) {
  const fastify = Fastify();
  const webhook = {
    authenticate: (request: FastifyRequest) => {
      if ((request.query as { token?: string }).token !== 'good') throw new UnauthorizedError('invalid webhook URL');
      return 'workflow 7';
    },
  };
  registerCredentialChecks(fastify, { webhook } as unknown as CredentialChecks);
  serveDirectRoutes(fastify, { get: () => controller } as unknown as INestApplicationContext);
  fastify.setErrorHandler((error, _request, reply) => sendError(reply, toErrorResponse(error)));
  const nestHandler = () => 'Nest ran the route';
  fastify.route({ method: 'POST', url: '/hook', handler: nestHandler, config: { ...configOf(handler) } });
  await fastify.ready();
  return fastify;
}

describe('DirectRoute', () => {
  const apps: { close(): Promise<unknown> }[] = [];
  after(() => Promise.all(apps.map((app) => app.close())));

  it('keeps the route config it is written into, with the credential its controller declares', () => {
    const config = configOf(Receiver.prototype.receive);
    assert.equal(config.anyContentType, true);
    assert.deepEqual(config.credential, { kind: 'webhook' } satisfies RouteCredential);
    assert.deepEqual(config.direct, { controller: Receiver, handler: Receiver.prototype.receive });
  });

  it("is called by Fastify itself, on the controller instance, with what the request's credential proved", async () => {
    const app = await serving(new Receiver(), Receiver.prototype.receive);
    apps.push(app);
    const answer = await app.inject({ method: 'POST', url: '/hook?token=good', payload: {} });
    assert.equal(answer.statusCode, 201);
    assert.equal(answer.body, 'received for workflow 7');
  });

  it('refuses a request its credential does not let in before the handler runs', async () => {
    const app = await serving(new Receiver(), Receiver.prototype.receive);
    apps.push(app);
    const answer = await app.inject({ method: 'POST', url: '/hook?token=bad', payload: {} });
    assert.equal(answer.statusCode, 401);
    assert.deepEqual(answer.json(), { error: 'invalid webhook URL' });
  });

  it('fails closed on a route that declares no credential: nothing gets in', async () => {
    const app = await serving(new Undeclared(), Undeclared.prototype.receive);
    apps.push(app);
    const answer = await app.inject({ method: 'POST', url: '/hook?token=good', payload: {} });
    assert.equal(answer.statusCode, 401);
  });
});

import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { Semaphore } from '../concurrency/semaphore.js';
import { COLLECT_AFTER_LARGE_BODY_BYTES, LARGE_BODY_BYTES, registerBodyBudget } from './body-budget.js';

const MB = 1_048_576;

/** A server with a budget of `capacity` bytes whose handler counts the large bodies it holds at once (until `holdWith`'s promise settles). */
function server(capacity: number) {
  const fastify = Fastify({ bodyLimit: MB });
  const budget = new Semaphore(capacity);
  const seen = { now: 0, most: 0, handled: 0, collections: 0 };
  registerBodyBudget(fastify, { budget, collectGarbage: () => seen.collections++ });
  let hold = Promise.resolve();
  fastify.post('/', async (request) => {
    if ((request.body as string).length < LARGE_BODY_BYTES) return { ok: true };
    seen.now++;
    seen.most = Math.max(seen.most, seen.now);
    await hold;
    await new Promise((resolve) => setTimeout(resolve, 20));
    seen.now--;
    seen.handled++;
    return { ok: true };
  });
  // Answers without reading whatever body the request declares.
  fastify.get('/', async () => ({ ok: true }));
  return { fastify, budget, seen, holdWith: (p: Promise<void>) => (hold = p) };
}

const post = (fastify: FastifyInstance, bytes: number, url = '/') =>
  fastify.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: `"${'x'.repeat(bytes - 2)}"` });

describe('body budget', () => {
  it('reads and handles large bodies only as many at once as the budget holds, and answers every one', async () => {
    const { fastify, seen } = server(2 * MB);
    const answers = await Promise.all(Array.from({ length: 12 }, () => post(fastify, MB - 100)));
    assert.deepEqual(new Set(answers.map((a) => a.statusCode)), new Set([200]));
    assert.equal(seen.handled, 12);
    assert.equal(seen.most, 2);
    await fastify.close();
  });

  it('asks for a collection after every COLLECT_AFTER_LARGE_BODY_BYTES of large bodies, and never for small ones', async () => {
    const { fastify, seen } = server(2 * MB);
    const perCollection = Math.ceil(COLLECT_AFTER_LARGE_BODY_BYTES / (MB - 100));
    // More bytes than one collection's worth, in bodies just under the large size.
    for (let i = 0; i <= COLLECT_AFTER_LARGE_BODY_BYTES / (LARGE_BODY_BYTES - 1); i++) await post(fastify, LARGE_BODY_BYTES - 1);
    assert.equal(seen.collections, 0, 'small bodies cost no collection');
    await Promise.all(Array.from({ length: perCollection - 1 }, () => post(fastify, MB - 100)));
    assert.equal(seen.collections, 0);
    await post(fastify, MB - 100);
    assert.equal(seen.collections, 1);
    await Promise.all(Array.from({ length: perCollection }, () => post(fastify, MB - 100)));
    assert.equal(seen.collections, 2);
    await fastify.close();
  });

  it('counts only bodies read to their end: a large declared length alone costs no collection', async () => {
    const { fastify, seen } = server(2 * MB);
    await fastify.listen({ port: 0, host: '127.0.0.1' });
    const { port } = fastify.server.address() as AddressInfo;
    const perCollection = Math.ceil(COLLECT_AFTER_LARGE_BODY_BYTES / (MB - 100));
    try {
      for (let i = 0; i <= perCollection; i++) {
        await new Promise<void>((resolve, reject) => {
          const declaring = httpRequest({ port, host: '127.0.0.1', method: 'GET', path: '/', agent: false, headers: { 'content-length': String(MB - 100) } }, (res) => {
            res.resume();
            res.on('end', () => {
              declaring.destroy();
              resolve();
            });
          });
          declaring.on('error', reject);
          declaring.flushHeaders();
        });
      }
      assert.equal(seen.collections, 0);
    } finally {
      await fastify.close();
    }
  });

  it('lets small bodies pass while large ones wait', async () => {
    const { fastify, seen, holdWith } = server(MB);
    let open!: () => void;
    holdWith(new Promise<void>((resolve) => (open = resolve)));
    const large = [post(fastify, MB - 100), post(fastify, MB - 100)];
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(seen.now, 1, 'the second large body waits');
    const small = await post(fastify, LARGE_BODY_BYTES - 1);
    assert.equal(small.statusCode, 200, 'a small body is not queued behind them');
    open();
    assert.deepEqual((await Promise.all(large)).map((a) => a.statusCode), [200, 200]);
    await fastify.close();
  });

  it('charges a body what its route can accept: a chunked or an over-declared post to a route that takes 64 KB costs nothing', async () => {
    const charged: number[] = [];
    const budget = new (class extends Semaphore {
      override acquire(weight?: number, abandoned?: AbortSignal) {
        charged.push(weight ?? 1);
        return super.acquire(weight, abandoned);
      }
    })(MB);
    const fastify = Fastify({ bodyLimit: MB });
    registerBodyBudget(fastify, { budget, collectGarbage: () => undefined });
    fastify.post('/form', { bodyLimit: LARGE_BODY_BYTES }, async () => ({ ok: true }));
    fastify.post('/', async () => ({ ok: true }));
    await fastify.listen({ port: 0, host: '127.0.0.1' });
    const { port } = fastify.server.address() as AddressInfo;
    /** A post without Content-Length: Node sends it chunked. */
    const chunked = (path: string, bytes: number) =>
      new Promise<number>((resolve, reject) => {
        const sending = httpRequest({ port, host: '127.0.0.1', method: 'POST', path, agent: false, headers: { 'content-type': 'application/json' } }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode!));
        });
        sending.on('error', reject);
        // Written before the end, so Node cannot know the length and sends the body chunked.
        sending.write(`"${'x'.repeat(bytes - 2)}"`);
        sending.end();
      });
    try {
      assert.equal(await chunked('/form', LARGE_BODY_BYTES - 100), 200);
      assert.equal((await post(fastify, MB - 100, '/form')).statusCode, 413);
      assert.deepEqual(charged, [], 'nothing charged for the route that takes 64 KB');
      assert.equal(await chunked('/', LARGE_BODY_BYTES - 100), 200);
      assert.deepEqual(charged, [MB], 'a chunked body to a route that takes 1 MB is charged 1 MB');
    } finally {
      await fastify.close();
    }
  });

  it('drops a waiting request whose sender hangs up, and gives its place to the next', async () => {
    const { fastify, seen, holdWith } = server(MB);
    let open!: () => void;
    holdWith(new Promise<void>((resolve) => (open = resolve)));
    await fastify.listen({ port: 0, host: '127.0.0.1' });
    const { port } = fastify.server.address() as AddressInfo;
    const first = post(fastify, MB - 100);
    await new Promise((resolve) => setTimeout(resolve, 50));
    // A sender that declares a large body, then leaves while it waits.
    const leaving = httpRequest({ port, host: '127.0.0.1', method: 'POST', path: '/', headers: { 'content-type': 'application/json', 'content-length': String(MB - 100) } });
    leaving.on('error', () => undefined);
    leaving.write('"');
    await new Promise((resolve) => setTimeout(resolve, 50));
    leaving.destroy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    open();
    assert.equal((await first).statusCode, 200);
    assert.equal((await post(fastify, MB - 100)).statusCode, 200, 'the budget is whole again');
    assert.equal(seen.handled, 2, 'the sender who left was never handled');
    await fastify.close();
  });
});

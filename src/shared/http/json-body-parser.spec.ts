import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Fastify, { type FastifyRequest } from 'fastify';
import { InvalidRequestError } from '../errors/app-error.js';
import { jsonText, type ParsedBody, readJsonBody, registerJsonBodyParser } from './json-body-parser.js';

/** What the parser stores as `request.body` for `payload`. */
async function parsed(payload: string): Promise<ParsedBody> {
  const fastify = Fastify();
  registerJsonBodyParser(fastify);
  fastify.post('/', async (request) => ({ body: request.body }));
  const reply = await fastify.inject({ method: 'POST', url: '/', headers: { 'content-type': 'application/json' }, payload });
  await fastify.close();
  return (reply.json() as { body: ParsedBody }).body;
}

describe('JSON body parser', () => {
  it('stores what it made of the body as a typed outcome, never throwing for a body that did not parse', async () => {
    assert.deepEqual(await parsed('{"a": 1.50}'), { kind: 'json', value: { a: 1.5 }, text: '{"a": 1.50}' });
    assert.deepEqual(await parsed('{"a":'), { kind: 'unparseable', reason: 'request body is not valid JSON' });
    assert.deepEqual(await parsed('  '), { kind: 'unparseable', reason: 'request body is empty' });
    assert.deepEqual(await parsed('['.repeat(65) + ']'.repeat(65)), { kind: 'unparseable', reason: 'request body nests deeper than 64 levels' });
  });

  it('readJsonBody turns an unparseable body into the 422, and gives the parsed value and text otherwise', () => {
    assert.throws(() => readJsonBody({ kind: 'unparseable', reason: 'request body is empty' }), (err: unknown) => err instanceof InvalidRequestError && err.message === 'request body is empty');
    assert.deepEqual(readJsonBody({ kind: 'json', value: [1], text: '[1]' }), { kind: 'json', value: [1], text: '[1]' });
    assert.equal(readJsonBody(undefined), undefined);
  });

  it('jsonText is the exact text of a body that parsed, null otherwise', () => {
    const request = (body: unknown) => ({ body }) as FastifyRequest;
    assert.equal(jsonText(request({ kind: 'json', value: { a: 1 }, text: '{ "a" : 1 }' })), '{ "a" : 1 }');
    assert.equal(jsonText(request(undefined)), null);
  });

  it('runs a route\'s raw-body check over the exact bytes sent, before parsing; a refusal stops the request there', async () => {
    const fastify = Fastify();
    registerJsonBodyParser(fastify);
    const seen: Buffer[] = [];
    fastify.addHook('onRequest', async (request) => {
      request.rawBodyCheck = (raw) => {
        seen.push(raw);
        if (request.headers['x-refuse'] !== undefined) throw new InvalidRequestError('refused by the check');
      };
    });
    fastify.post('/', async (request) => ({ body: request.body, pending: request.rawBodyCheck !== undefined }));
    // Not valid UTF-8 (0xff) and not valid JSON: the check sees the bytes themselves, not a decoded text.
    const bytes = Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31]);
    const refused = await fastify.inject({ method: 'POST', url: '/', headers: { 'content-type': 'application/json', 'x-refuse': '1' }, payload: bytes });
    // Bare Fastify answers the thrown error itself (the service maps it to its status); the handler never ran.
    assert.match(refused.body, /refused by the check/);
    assert.ok(!('body' in refused.json()));
    const passed = await fastify.inject({ method: 'POST', url: '/', headers: { 'content-type': 'application/json' }, payload: '{"a":1}' });
    await fastify.close();
    assert.deepEqual(seen, [bytes, Buffer.from('{"a":1}')]);
    assert.deepEqual(passed.json(), { body: { kind: 'json', value: { a: 1 }, text: '{"a":1}' }, pending: false });
  });
});

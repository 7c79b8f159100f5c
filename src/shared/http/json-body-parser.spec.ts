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
});

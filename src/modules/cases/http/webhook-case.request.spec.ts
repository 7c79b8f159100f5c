import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidRequestError } from '../../../shared/errors/app-error.js';
import { TooManyKeysError, webhookAttributes } from './webhook-case.request.js';

const json = (text: string) => ({ kind: 'json', value: JSON.parse(text) as unknown, text });

describe('webhook case request', () => {
  it('takes any JSON object, its exact text as the attributes', () => {
    assert.deepEqual(webhookAttributes(json('{"n": 1.0}')), { value: { n: 1 }, text: '{"n": 1.0}' });
  });

  it('refuses what is not a JSON object, and a body that did not parse, with one 422 each', () => {
    for (const body of [json('[1]'), json('null'), undefined]) {
      assert.throws(() => webhookAttributes(body), (err: unknown) => err instanceof InvalidRequestError && err.message === 'the request body must be a JSON object');
    }
    assert.throws(() => webhookAttributes({ kind: 'unparseable', reason: 'request body is empty' }), (err: unknown) => err instanceof InvalidRequestError && err.message === 'request body is empty');
  });

  it('refuses more than 1,000 top-level keys', () => {
    const keys = (n: number) => JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i])));
    assert.equal(Object.keys(webhookAttributes(json(keys(1000))).value).length, 1000);
    assert.throws(() => webhookAttributes(json(keys(1001))), TooManyKeysError);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IsOptional, IsString } from 'class-validator';
import { InvalidRequestError } from '../errors/app-error.js';
import { RequestValidationPipe } from './request-validation.pipe.js';

class NamedRequest {
  @IsOptional() @IsString() name?: string;
}

const pipe = new RequestValidationPipe();
const body = (value: unknown) => pipe.transform({ kind: 'json', value, text: JSON.stringify(value) }, { type: 'body', metatype: NamedRequest });
const query = (value: Record<string, unknown>) => pipe.transform(value, { type: 'query', metatype: NamedRequest });

async function refusedPaths(work: Promise<unknown>): Promise<string[]> {
  const err = await work.then(() => undefined, (e: unknown) => e);
  assert.ok(err instanceof InvalidRequestError, `a 422, not ${String(err)}`);
  return (err.details.validation_errors as { path: string }[]).map((p) => p.path);
}

describe('RequestValidationPipe', () => {
  it('passes a body and a query string of declared keys, untouched', async () => {
    const value = { name: 'x' };
    assert.equal(await body(value), value);
    assert.equal(await query(value), value);
  });

  it("refuses, as an unsupported key, each key that names a JavaScript object's machinery, whatever its value", async () => {
    const keys = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', 'toLocaleString', '__defineGetter__'];
    for (const key of keys) {
      for (const value of [['x'.repeat(300)], 'x', 1, { a: 1 }, null]) {
        const sent = JSON.parse(`{${JSON.stringify(key)}:${JSON.stringify(value)},"name":"n"}`) as Record<string, unknown>;
        assert.deepEqual(await refusedPaths(body(sent)), [`/${key}`], `body ${key}: ${JSON.stringify(value)}`);
        assert.deepEqual(await refusedPaths(query(sent)), [`/${key}`], `query ${key}: ${JSON.stringify(value)}`);
      }
    }
  });

  it('refuses any other undeclared key the same way', async () => {
    assert.deepEqual(await refusedPaths(body({ other: ['x'] })), ['/other']);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pg from 'pg';
import { toErrorResponse } from '../../src/shared/http-errors/error-response.js';

describe('database errors: what the HTTP layer answers for a real driver failure', () => {
  it('a statement that outlasts the client\'s query timeout is a 503 to retry, not a 500', async () => {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL, query_timeout: 50 });
    await client.connect();
    try {
      const failure: unknown = await client.query('SELECT pg_sleep(2)').then(
        () => assert.fail('the statement should have outlasted the timeout'),
        (err: unknown) => err,
      );
      const answer = toErrorResponse(failure);
      assert.equal(answer.status, 503);
      assert.equal(answer.unexpected, false);
      assert.equal(typeof answer.body.error, 'string');
    } finally {
      await client.end();
    }
  });

  it('a statement Postgres cancels at its statement_timeout is a 503 with Retry-After, not a 500', async () => {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL, statement_timeout: 50 });
    await client.connect();
    try {
      const failure: unknown = await client.query('SELECT pg_sleep(2)').then(
        () => assert.fail('Postgres should have cancelled the statement'),
        (err: unknown) => err,
      );
      assert.equal((failure as { code?: string }).code, '57014');
      const answer = toErrorResponse(failure);
      assert.equal(answer.status, 503);
      assert.equal(answer.unexpected, false);
      assert.deepEqual(answer.headers, { 'retry-after': '5' });
      assert.equal(typeof answer.body.error, 'string');
    } finally {
      await client.end();
    }
  });
});

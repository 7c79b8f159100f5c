import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pg from 'pg';
import { toErrorResponse } from '../../src/shared/http-errors/error-response.js';

/** The error a `SELECT pg_sleep(2)` fails with on a connection of these options. */
async function sleepFailure(options: pg.ClientConfig): Promise<unknown> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL, ...options });
  await client.connect();
  try {
    return await client.query('SELECT pg_sleep(2)').then(
      () => assert.fail('the statement should have been cut short'),
      (err: unknown) => err,
    );
  } finally {
    await client.end();
  }
}

describe('database errors: what the HTTP layer answers for a real driver failure', () => {
  it('a statement that outlasts the client\'s query timeout is a 503 to retry, not a 500', async () => {
    const answer = toErrorResponse(await sleepFailure({ query_timeout: 50 }));
    assert.equal(answer.status, 503);
    assert.equal(answer.unexpected, false);
    assert.equal(typeof answer.body.error, 'string');
  });

  it('a statement Postgres cancels at its statement_timeout is a 503 with Retry-After, not a 500', async () => {
    const failure = await sleepFailure({ statement_timeout: 50 });
    assert.equal((failure as { code?: string }).code, '57014');
    const answer = toErrorResponse(failure);
    assert.equal(answer.status, 503);
    assert.equal(answer.unexpected, false);
    assert.deepEqual(answer.headers, { 'retry-after': '5' });
    assert.equal(typeof answer.body.error, 'string');
  });
});

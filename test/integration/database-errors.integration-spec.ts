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

  it('a deadlock\'s loser is a 503 with Retry-After, not a 500', async () => {
    const [first, second] = [new pg.Client({ connectionString: process.env.DATABASE_URL }), new pg.Client({ connectionString: process.env.DATABASE_URL })];
    await Promise.all([first.connect(), second.connect()]);
    try {
      // Two transactions each holding one advisory lock and asking for the other's: Postgres breaks one of them off.
      for (const [client, key] of [[first, 1], [second, 2]] as const) {
        await client.query('BEGIN');
        await client.query('SELECT pg_advisory_xact_lock(424242, $1)', [key]);
      }
      // The loser holds its lock until it rolls back; the winner gets it then.
      const outcomes = await Promise.all(([[first, 2], [second, 1]] as const).map(([client, key]) =>
        client.query('SELECT pg_advisory_xact_lock(424242, $1)', [key]).then(() => undefined, async (err: unknown) => {
          await client.query('ROLLBACK');
          return err;
        })));
      const failure = outcomes.find((outcome) => outcome !== undefined) as { code?: string } | undefined;
      assert.equal(failure?.code, '40P01');
      const answer = toErrorResponse(failure);
      assert.equal(answer.status, 503);
      assert.equal(answer.unexpected, false);
      assert.deepEqual(answer.headers, { 'retry-after': '5' });
    } finally {
      await Promise.all([first.end(), second.end()]);
    }
  });
});

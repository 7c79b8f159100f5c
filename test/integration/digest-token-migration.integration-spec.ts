/**
 * The migration that gives digest recipients an unsubscribe token of their own, over rows the
 * one-token schema wrote: a token that may be in digests (the address confirmed at some point)
 * confirms nothing afterwards, and a confirmed address's one keeps unsubscribing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { QueryRunner } from 'typeorm';
import { DigestUnsubscribeTokens1763890700000 } from '../../src/shared/database/migrations/1763890700000-digest-unsubscribe-tokens.js';
import { type IsolatedDatabase, isolatedDatabase } from '../support/automation-helpers.js';

describe('digest unsubscribe tokens migration', () => {
  let database: IsolatedDatabase;
  const migration = new DigestUnsubscribeTokens1763890700000();
  const runner = () => ({ query: (sql: string) => database.pool.query(sql) }) as unknown as QueryRunner;

  before(async () => { database = await isolatedDatabase(); });
  after(() => database?.drop());

  it('a confirmed address\'s token becomes its unsubscribe token, an unsubscribed one\'s confirms nothing, a pending one\'s still confirms', async () => {
    await migration.down(runner());
    const [org] = (await database.pool.query<{ id: string }>(`INSERT INTO organizations (name) VALUES ('Acme') RETURNING id`)).rows;
    await database.pool.query(
      `INSERT INTO digest_recipients (organization_id, address, token_hash, token_ciphertext, confirmed_at, unsubscribed_at) VALUES
         ($1, 'confirmed@acme.example', '\\x01', 'sealed-1', now(), NULL),
         ($1, 'unsubscribed@acme.example', '\\x02', 'sealed-2', NULL, now()),
         ($1, 'pending@acme.example', '\\x03', 'sealed-3', NULL, NULL)`,
      [org!.id],
    );
    await migration.up(runner());
    const { rows } = await database.pool.query(
      `SELECT address, encode(token_hash, 'hex') AS confirm, token_ciphertext AS confirm_sealed,
              encode(unsubscribe_token_hash, 'hex') AS unsubscribe, unsubscribe_token_ciphertext AS unsubscribe_sealed
       FROM digest_recipients ORDER BY address`,
    );
    assert.deepEqual(rows, [
      { address: 'confirmed@acme.example', confirm: null, confirm_sealed: null, unsubscribe: '01', unsubscribe_sealed: 'sealed-1' },
      { address: 'pending@acme.example', confirm: '03', confirm_sealed: 'sealed-3', unsubscribe: null, unsubscribe_sealed: null },
      { address: 'unsubscribed@acme.example', confirm: null, confirm_sealed: null, unsubscribe: null, unsubscribe_sealed: null },
    ]);
  });
});

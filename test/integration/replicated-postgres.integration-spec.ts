/** The primary and streaming replica that `npm run test:replica` runs the suites against (test/support/replicated-postgres.ts). */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { type ReplicatedPostgres, replicationUnavailable, startReplicatedPostgres } from '../support/replicated-postgres.js';

describe('startReplicatedPostgres: a primary and its streaming replica', { skip: await replicationUnavailable() }, () => {
  let dir: string;
  let pair: ReplicatedPostgres;
  let primary: pg.Pool;
  let replica: pg.Pool;
  const notes = async (on: pg.Pool) => (await on.query<{ note: string }>('SELECT note FROM notes ORDER BY id')).rows.map((row) => row.note);

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cis-replicated-'));
    pair = await startReplicatedPostgres(dir);
    primary = new pg.Pool({ connectionString: pair.primaryUrl, max: 1 });
    replica = new pg.Pool({ connectionString: pair.replicaUrl, max: 1 });
    // Killing the replica ends the pool's idle connection; the next query takes a new one.
    replica.on('error', () => undefined);
    await primary.query('CREATE TABLE notes (id serial PRIMARY KEY, note text NOT NULL)');
  });
  after(async () => {
    await primary?.end();
    await replica?.end();
    await pair?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('serves on the replica, read-only, what the primary wrote once it is replayed', async () => {
    await primary.query("INSERT INTO notes (note) VALUES ('first')");
    await pair.waitForReplay();
    assert.deepEqual(await notes(replica), ['first']);
    assert.equal((await replica.query<{ recovering: boolean }>('SELECT pg_is_in_recovery() AS recovering')).rows[0]!.recovering, true);
    await assert.rejects(replica.query("INSERT INTO notes (note) VALUES ('here')"), /read-only transaction/);
  });

  it('shows nothing new on the replica while its replay is paused, and all of it once resumed', async () => {
    await pair.pauseReplay();
    const before = await pair.replayLsn();
    await primary.query("INSERT INTO notes (note) VALUES ('while paused')");
    const written = (await primary.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn')).rows[0]!.lsn;
    // Time enough for the row to arrive, had replay gone on: it reaches the replica in milliseconds.
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.deepEqual(await notes(replica), ['first']);
    assert.equal(await pair.replayLsn(), before);
    await pair.resumeReplay();
    await pair.waitForReplay(written);
    assert.deepEqual(await notes(replica), ['first', 'while paused']);
  });

  it('catches up after the replica was killed and started again, with what the primary wrote meanwhile', async () => {
    await pair.killReplica();
    await assert.rejects(replica.query('SELECT 1'));
    await primary.query("INSERT INTO notes (note) VALUES ('while down')");
    await pair.startReplica();
    await pair.waitForReplay();
    assert.deepEqual(await notes(replica), ['first', 'while paused', 'while down']);
  });
});

/**
 * Reads served from a streaming replica (DATABASE_READ_URL, issue 28), against a real primary
 * and replica this spec starts (test/support/replicated-postgres.ts), with the replica's replay
 * paused to make it lag, and killed. What holds: an organization that changed something reads it
 * at once, whatever the replica lags (the marker of recent changes); one that changed nothing is
 * served by the replica, and its change feed skips nothing when the replica catches up; a replica
 * further behind than DATABASE_READ_MAX_LAG_MS, or down, is skipped, with a log line and the
 * metrics saying so.
 *
 * The lag test fails without its mechanism: with RecentChanges.changedLately answering false,
 * "reads its own change at once" gets the list without the new case (checked by hand, see
 * docs/deploying.md, "A read replica").
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { type CasesFixture, createdCaseId, givenCasesWorkflow, postCase } from '../support/cases-api.js';
import { type ReplicatedPostgres, replicationUnavailable, startReplicatedPostgres } from '../support/replicated-postgres.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { createTestDatabase, dropTestDatabase } from '../support/test-infra.js';

// Wide enough that a poll the busy CI machine delays does not make the replica count as behind.
const MAX_LAG_MS = 3000;
/** RecentChanges keeps an organization's marker this long after its last change. */
const MARKER_LIFETIME_MS = MAX_LAG_MS + 1000;

describe('reads from a streaming replica', { skip: await replicationUnavailable() }, () => {
  let dir: string;
  let pair: ReplicatedPostgres;
  let databaseUrl: string;
  let primary: pg.Pool;
  let t: TestApp;
  /** Changes only through the API: always reads where its changes are. */
  let writer: CasesFixture;
  /** Changed nothing through the API lately: served by the replica. */
  let reader: CasesFixture;
  let readerCaseId: number;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cis-replica-reads-'));
    pair = await startReplicatedPostgres(dir);
    databaseUrl = await createTestDatabase(pair.primaryUrl, `cis_replica_${randomBytes(4).toString('hex')}`, pair.replicaUrl);
    const readUrl = new URL(pair.replicaUrl);
    readUrl.pathname = new URL(databaseUrl).pathname;
    primary = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    t = await startTestApp({
      captureLogs: true,
      env: {
        DATABASE_URL: databaseUrl,
        DATABASE_READ_URL: readUrl.toString(),
        DATABASE_READ_MAX_LAG_MS: String(MAX_LAG_MS),
        DATABASE_READ_WAIT_MS: '200',
        ROLE: 'api',
        RATE_LIMIT_PER_ADDRESS: '0',
        RATE_LIMIT_PER_CREDENTIAL: '0',
      },
    });
    writer = await givenCasesWorkflow(t);
    reader = await givenCasesWorkflow(t);
    readerCaseId = await createdCaseId(reader, { subject: 'first' });
  });
  after(async () => {
    await t?.close();
    await primary?.end();
    await pair?.resumeReplay().catch(() => undefined);
    if (databaseUrl) await dropTestDatabase(pair.primaryUrl, databaseUrl).catch(() => undefined);
    await pair?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const metric = async (name: string): Promise<number> => {
    const res = await t.request('GET', '/metrics');
    const line = res.text.split('\n').find((l) => l.startsWith(`${name} `));
    assert.ok(line, `${name} in /metrics`);
    return Number(line.slice(name.length + 1));
  };
  const until = async (what: string, done: () => Promise<boolean>, timeoutMs = 10_000) => {
    for (const deadline = Date.now() + timeoutMs; !(await done()); await sleep(50)) assert.ok(Date.now() < deadline, `timed out waiting: ${what}`);
  };
  const replicaInUse = () => until('the replica in use', async () => (await metric('database_read_replica_in_use')) === 1);
  const listed = async (f: CasesFixture, token = f.apiToken) => {
    const res = await t.request('GET', f.casesPath, { token });
    assert.equal(res.status, 200, res.text);
    return res.body.cases as { id: number; subject: string }[];
  };
  const feed = async (f: CasesFixture, after?: string) => {
    const res = await t.request('GET', `${f.casesPath}/changes${after ? `?after=${after}` : ''}`, { token: f.apiToken });
    assert.equal(res.status, 200, res.text);
    return res.body as { cases: { id: number; subject: string }[]; next_cursor: string };
  };
  /** A change made outside the API (as the worker's are): it marks nothing. */
  const renameOnPrimary = (caseId: number, subject: string) =>
    primary.query('UPDATE cases SET subject = $2, updated_at = now(), change_xid = pg_current_xact_id() WHERE id = $1', [caseId, subject]);
  const logged = (message: string) => t.logs.some((line) => line.includes(message));

  it('reads its own change at once while the replica replays nothing: the list, the admin list and the change feed', async () => {
    await replicaInUse();
    await pair.pauseReplay();
    try {
      const res = await postCase(writer, { subject: 'written while replay is paused' });
      assert.equal(res.status, 201, res.text);
      const id = res.body.case.id as number;
      assert.ok((await listed(writer)).some((c) => c.id === id), 'the cases API list shows it');
      const admin = await t.request('GET', '/api/admin/v1/cases', { token: writer.org.adminToken });
      assert.ok((admin.body.cases as { id: number }[]).some((c) => c.id === id), 'the admin list shows it (another credential of the organization)');
      assert.ok((await feed(writer)).cases.some((c) => c.id === id), 'the change feed shows it');
    } finally {
      await pair.resumeReplay();
    }
  });

  it('serves an organization that changed nothing lately from the replica, and its change feed skips nothing once the replica caught up', async () => {
    await sleep(MARKER_LIFETIME_MS);
    await pair.waitForReplay();
    await replicaInUse();
    const start = (await feed(reader)).next_cursor;
    await pair.pauseReplay();
    try {
      await renameOnPrimary(readerCaseId, 'renamed on the primary');
      const stale = await listed(reader);
      assert.equal(stale.find((c) => c.id === readerCaseId)?.subject, 'first', 'the replica, paused, still has the old subject');
      const lagging = await feed(reader, start);
      assert.deepEqual(lagging.cases, [], 'the feed read on the replica has no change yet');
      await pair.resumeReplay();
      await pair.waitForReplay();
      const caughtUp = await feed(reader, lagging.next_cursor);
      assert.deepEqual(caughtUp.cases.map((c) => [c.id, c.subject]), [[readerCaseId, 'renamed on the primary']], 'the next page has the change: none skipped');
      assert.equal((await listed(reader)).find((c) => c.id === readerCaseId)?.subject, 'renamed on the primary');
    } finally {
      await pair.resumeReplay();
    }
  });

  it('skips a replica further behind than DATABASE_READ_MAX_LAG_MS, with a log line and the metrics, and uses it again once it caught up', async () => {
    await replicaInUse();
    await pair.pauseReplay();
    try {
      await renameOnPrimary(readerCaseId, 'renamed while the replica lags');
      await until('the replica skipped', async () => (await metric('database_read_replica_in_use')) === 0, MAX_LAG_MS * 4);
      assert.ok((await metric('database_read_replica_lag_seconds')) > MAX_LAG_MS / 1000);
      // The gauge reads the replica's state when scraped; the line comes with the next poll.
      await until('a log line says it is skipped', async () => logged('read replica skipped: further behind the primary than DATABASE_READ_MAX_LAG_MS'));
      assert.equal((await listed(reader)).find((c) => c.id === readerCaseId)?.subject, 'renamed while the replica lags', 'read from the primary');
    } finally {
      await pair.resumeReplay();
    }
    await replicaInUse();
    assert.ok((await metric('database_read_replica_lag_seconds')) < MAX_LAG_MS / 1000);
    await until('a log line says it is in use again', async () => logged('read replica in use'));
  });

  it('reads from the primary while the replica is down, and from the replica again once it is back', async () => {
    await replicaInUse();
    await pair.killReplica();
    try {
      // At once, whether or not a poll found it gone yet: a read the replica fails is read again from the primary.
      await renameOnPrimary(readerCaseId, 'renamed while the replica is down');
      assert.equal((await listed(reader)).find((c) => c.id === readerCaseId)?.subject, 'renamed while the replica is down');
      assert.equal((await feed(reader)).cases.find((c) => c.id === readerCaseId)?.subject, 'renamed while the replica is down');
      await until('the replica skipped', async () => (await metric('database_read_replica_in_use')) === 0);
      await until('a log line says it is skipped', async () => logged('read replica skipped: where it is could not be read'));
      assert.equal((await metric('database_read_replica_lag_seconds')).toString(), 'NaN');
    } finally {
      await pair.startReplica();
    }
    await replicaInUse();
    assert.equal((await listed(reader)).find((c) => c.id === readerCaseId)?.subject, 'renamed while the replica is down');
  });
});

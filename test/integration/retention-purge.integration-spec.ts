/**
 * The retention purge against real Postgres: each limit just under and just over, unfinished
 * work kept, per-organization overrides on their organization only, and idempotency keys after
 * their 24 hours. Rows are aged with SQL; the pass is the one the worker role runs.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ENDED_SIGN_INS_KEPT_MS } from '../../src/modules/people/application/people-purges.js';
import { DIGEST_SENDS_KEPT_MS } from '../../src/modules/reporting/domain/digest.js';
import {
  ageCase,
  ageDeliveries,
  ageRun,
  exists,
  givenRetentionWorkflow,
  givenSubscription,
  justOver,
  justUnder,
  purgedRowsMetric,
  type RetentionContext,
  type RetentionWorkflow,
  startRetentionContext,
} from '../support/retention-fixtures.js';
import { givenOrganization } from '../support/integration-scenario.js';

describe('retention purge', () => {
  let r: RetentionContext;
  before(async () => {
    r = await startRetentionContext();
  });
  after(() => r.close());

  const runExists = (id: number) => exists(r, 'workflow_runs', 'id', id);
  const caseExists = (id: number) => exists(r, 'cases', 'id', id);

  it('deletes finished runs just over RETENTION_RUNS_DAYS, keeps those just under and every unfinished one', async () => {
    const w = await givenRetentionWorkflow(r);
    const run = async (state: string, days: number) => ageRun(r, await w.createCase(), state, days);
    const gone = [await run('succeeded', justOver(30)), await run('failed', justOver(30)), await run('superseded', justOver(30))];
    const kept = [await run('succeeded', justUnder(30)), await run('failed', justUnder(30)), await run('superseded', justUnder(30))];
    const unfinished = [await run('pending', 90), await run('running', 90), await run('waiting', 90)];

    const { pass, registry } = r.pass();
    const purged = await pass.run();

    for (const id of gone) assert.equal(await runExists(id), false, `run ${id} finished just over 30 days ago is purged`);
    for (const id of [...kept, ...unfinished]) assert.equal(await runExists(id), true, `run ${id} is kept`);
    assert.equal(purged.runs, 3);
    assert.equal((await purgedRowsMetric(registry)).runs, 3);
    assert.equal((await purgedRowsMetric(registry)).cases, 0, 'every kind is shown, at 0 when nothing went');
  });

  it('deletes ended deliveries just over RETENTION_DELIVERIES_DAYS with their attempts and events, keeps the others', async () => {
    const w = await givenRetentionWorkflow(r);
    await givenSubscription(r, w.organizationId);
    const delivery = async (state: 'pending' | 'delivered' | 'failed', days: number) => {
      const caseId = await w.createCase();
      const [id] = await ageDeliveries(r, caseId, state, days);
      return { caseId, id: id! };
    };
    const gone = [await delivery('delivered', justOver(30)), await delivery('failed', justOver(30))];
    const kept = [await delivery('delivered', justUnder(30)), await delivery('failed', justUnder(30)), await delivery('pending', 90)];

    const purged = await r.pass().pass.run();

    for (const d of gone) {
      assert.equal(await exists(r, 'event_deliveries', 'id', d.id), false, `delivery ${d.id} ended just over 30 days ago is purged`);
      assert.equal(await exists(r, 'delivery_attempts', 'delivery_id', d.id), false, 'with its attempts');
      assert.equal(await exists(r, 'outbox_events', 'case_id', d.caseId), false, 'and its event, none of whose deliveries remain');
      assert.equal(await caseExists(d.caseId), true, 'the case stays');
    }
    for (const d of kept) {
      assert.equal(await exists(r, 'event_deliveries', 'id', d.id), true, `delivery ${d.id} is kept`);
      assert.equal(await exists(r, 'delivery_attempts', 'delivery_id', d.id), true);
      assert.equal(await exists(r, 'outbox_events', 'case_id', d.caseId), true);
    }
    assert.deepEqual([purged.deliveries, purged.delivery_attempts, purged.outbox_events], [2, 2, 2]);
  });

  it('keeps an event, and its ended deliveries, while another of its deliveries is still being retried', async () => {
    const w = await givenRetentionWorkflow(r);
    await givenSubscription(r, w.organizationId);
    await givenSubscription(r, w.organizationId);
    const caseId = await w.createCase();
    const [ended, retried] = await ageDeliveries(r, caseId, 'delivered', 90);
    await r.pool.query(`UPDATE event_deliveries SET state = 'pending', finished_at = NULL WHERE id = $1`, [retried]);

    await r.pass().pass.run();

    assert.equal(await exists(r, 'event_deliveries', 'id', ended!), true);
    assert.equal(await exists(r, 'event_deliveries', 'id', retried!), true);
    assert.equal(await exists(r, 'outbox_events', 'case_id', caseId), true);
  });

  it('deletes cases Closed just over closed_cases_days with everything they hold; keeps the rest', async () => {
    const w = await givenRetentionWorkflow(r);
    await givenSubscription(r, w.organizationId);
    await r.setOverrides(w.organizationId, { closedCasesDays: 10 });
    const closed = async (days: number) => {
      const caseId = await w.createCase();
      await ageCase(r, caseId, 'Closed', days);
      await ageDeliveries(r, caseId, 'delivered', days);
      return caseId;
    };
    const gone = await closed(justOver(10));
    await r.pool.query(`INSERT INTO idempotency_keys (organization_id, key, request_hash, case_id) VALUES ($1, 'retention-key', '\\x00', $2)`, [w.organizationId, gone]);
    await r.pool.query(`INSERT INTO webhook_dedup_keys (workflow_id, key_hash, case_id) VALUES ($1, '\\x00', $2)`, [w.workflowId, gone]);
    const justClosed = await closed(justUnder(10));
    for (const caseId of [gone, justClosed]) {
      const [comment] = (await r.pool.query(`INSERT INTO case_comments (organization_id, case_id, author_name, visibility, body) VALUES ($1, $2, 'a@example.com', 'public', 'hi') RETURNING id`, [w.organizationId, caseId])).rows;
      await r.pool.query(`INSERT INTO comment_mails (organization_id, comment_id, case_id, from_address, to_addresses, subject, message_id) VALUES ($1, $2, $3, 'in@localhost', '{r@example.com}', 'Re: x', '<m@x>')`, [w.organizationId, comment.id, caseId]);
      await r.pool.query(`INSERT INTO case_watchers (organization_id, case_id, user_id) VALUES ($1, $2, 1)`, [w.organizationId, caseId]);
      await r.pool.query(`INSERT INTO notification_batches (organization_id, user_id, case_id) VALUES ($1, 1, $2)`, [w.organizationId, caseId]);
    }
    const open = await w.createCase();
    await ageCase(r, open, 'Open', 90);
    const withPendingDelivery = await w.createCase();
    await ageCase(r, withPendingDelivery, 'Closed', 90);
    await ageDeliveries(r, withPendingDelivery, 'pending', 90);
    const withUnfinishedRun = await w.createCase();
    await ageCase(r, withUnfinishedRun, 'Closed', 90, { keepRun: true });
    await ageRun(r, withUnfinishedRun, 'waiting', 90);

    const purged = await r.pass().pass.run();

    assert.equal(await caseExists(gone), false, 'the case Closed just over 10 days ago is purged');
    const caseWork = [['case_comments', 'case_id'], ['comment_mails', 'case_id'], ['case_watchers', 'case_id'], ['notification_batches', 'case_id']] as const;
    for (const [table, column] of [['case_events', 'case_id'], ['workflow_runs', 'case_id'], ['outbox_events', 'case_id'], ['event_deliveries', 'case_id'], ['idempotency_keys', 'case_id'], ['webhook_dedup_keys', 'case_id'], ...caseWork] as const) {
      assert.equal(await exists(r, table, column, gone), false, `with its ${table}`);
    }
    for (const [table, column] of caseWork) assert.equal(await exists(r, table, column, justClosed), true, `a kept case keeps its ${table}`);
    assert.deepEqual([purged.case_comments, purged.case_watchers, purged.notification_batches], [1, 1, 1]);
    for (const kept of [justClosed, open, withPendingDelivery, withUnfinishedRun]) assert.equal(await caseExists(kept), true, `case ${kept} is kept`);
    assert.equal(await exists(r, 'case_events', 'case_id', open), true);
    assert.equal(purged.cases, 1);
    assert.ok(purged.case_events >= 1 && purged.idempotency_keys === 1 && purged.webhook_dedup_keys === 1 && purged.outbox_events >= 1);
  });

  it('deletes the merge pointers and links of the cases it purges, whichever way they point; keeps the others', async () => {
    const w = await givenRetentionWorkflow(r);
    await r.setOverrides(w.organizationId, { closedCasesDays: 10 });
    const [gone, alive, other] = [await w.createCase(), await w.createCase(), await w.createCase()];
    await ageCase(r, gone, 'Closed', justOver(10));
    await r.pool.query(
      `INSERT INTO case_merges (organization_id, merged_case_id, into_case_id) VALUES ($1, $2, $3), ($1, $4, $2)`,
      [w.organizationId, gone, alive, other],
    );
    await r.pool.query(
      `INSERT INTO case_links (organization_id, case_id, other_case_id, type) VALUES ($1, $2, $3, 'relates'), ($1, $3, $2, 'blocks'), ($1, $3, $4, 'relates')`,
      [w.organizationId, gone, alive, other],
    );

    const purged = await r.pass().pass.run();

    assert.equal(await caseExists(gone), false);
    const merges = await r.pool.query('SELECT merged_case_id::int AS m, into_case_id::int AS i FROM case_merges WHERE organization_id = $1', [w.organizationId]);
    assert.deepEqual(merges.rows, [], 'the pointer from the purged case and the one into it');
    const links = await r.pool.query('SELECT case_id::int AS a, other_case_id::int AS b FROM case_links WHERE organization_id = $1', [w.organizationId]);
    assert.deepEqual(links.rows, [{ a: alive, b: other }]);
    assert.equal(purged.case_links, 2);
  });

  it('applies an organization\'s overrides to its own rows only; closed_cases_days 0 keeps closed cases', async () => {
    const shortened = await givenRetentionWorkflow(r);
    const other = await givenRetentionWorkflow(r);
    await r.setOverrides(shortened.organizationId, { runsDays: 7, closedCasesDays: 5 });
    await r.setOverrides(other.organizationId, { closedCasesDays: 0 });
    const ageBoth = async (x: RetentionWorkflow) => {
      const runCase = await x.createCase();
      const run = await ageRun(r, runCase, 'succeeded', justOver(7));
      const closedCase = await x.createCase();
      await ageCase(r, closedCase, 'Closed', 60);
      return { run, closedCase };
    };
    const inShortened = await ageBoth(shortened);
    const inOther = await ageBoth(other);

    await r.pass().pass.run();

    assert.equal(await runExists(inShortened.run), false, 'runs_days 7 applies to its organization');
    assert.equal(await caseExists(inShortened.closedCase), false, 'closed_cases_days 5 applies to its organization');
    assert.equal(await runExists(inOther.run), true, 'the other organization keeps the 30-day default');
    assert.equal(await caseExists(inOther.closedCase), true, 'closed_cases_days 0 keeps closed cases');
  });

  it('deletes idempotency keys just over their 24 hours, keeps those just under', async () => {
    const w = await givenRetentionWorkflow(r);
    const key = async (name: string, age: string) => {
      await r.pool.query(
        `INSERT INTO idempotency_keys (organization_id, key, request_hash, case_id, created_at) VALUES ($1, $2, '\\x00', $3, now() - interval '${age}')`,
        [w.organizationId, name, await w.createCase()],
      );
    };
    await key('expired', '24 hours 1 minute');
    await key('live', '23 hours 59 minutes');
    await key('new', '0 seconds');

    await r.pass().pass.run();

    const { rows } = await r.pool.query<{ key: string }>(`SELECT key FROM idempotency_keys WHERE organization_id = $1 ORDER BY key`, [w.organizationId]);
    assert.deepEqual(rows.map((row) => row.key), ['live', 'new']);
  });

  it('deletes webhook delivery keys just over the longest window (7 days), keeps those just under', async () => {
    const w = await givenRetentionWorkflow(r);
    const key = async (name: string, age: string) => {
      await r.pool.query(
        `INSERT INTO webhook_dedup_keys (workflow_id, key_hash, case_id, created_at) VALUES ($1, convert_to($2, 'UTF8'), $3, now() - interval '${age}')`,
        [w.workflowId, name, await w.createCase()],
      );
    };
    await key('expired', '7 days 1 minute');
    await key('live', '6 days 23 hours 59 minutes');
    await key('new', '0 seconds');

    const purged = await r.pass().pass.run();

    const { rows } = await r.pool.query<{ key: string }>(`SELECT convert_from(key_hash, 'UTF8') AS key FROM webhook_dedup_keys WHERE workflow_id = $1 ORDER BY 1`, [w.workflowId]);
    assert.deepEqual(rows.map((row) => row.key), ['live', 'new']);
    assert.equal(purged.webhook_dedup_keys, 1);
  });

  it('deletes digest sends done with whose period ended just over DIGEST_SENDS_KEPT_MS ago, counted by kind; keeps newer ones and unsent ones', async () => {
    const w = await givenRetentionWorkflow(r);
    const { rows: [digest] } = await r.pool.query<{ id: string }>(
      `INSERT INTO digests (organization_id, schedule, hour_utc, recipients) VALUES ($1, 'daily', 6, ARRAY['ops@acme.example']) RETURNING id`,
      [w.organizationId],
    );
    let nth = 0;
    /** A send whose period ended `endedMsAgo` ago (each a second apart, so scheduled ones keep their unique period). */
    const send = async (state: string, endedMsAgo: number, kind = 'scheduled') => {
      const ago = endedMsAgo + 1000 * nth++;
      const { rows } = await r.pool.query<{ id: string }>(
        `INSERT INTO digest_sends (digest_id, kind, period_start, period_end, state)
         VALUES ($1, $4, now() - ($2::float8 + 86400000) * interval '1 millisecond', now() - $2::float8 * interval '1 millisecond', $3) RETURNING id`,
        [digest!.id, ago, state, kind],
      );
      return Number(rows[0]!.id);
    };
    const over = DIGEST_SENDS_KEPT_MS + 60_000;
    const under = DIGEST_SENDS_KEPT_MS - 60_000;
    const gone = [await send('sent', over), await send('skipped', over), await send('failed', over), await send('sent', over, 'manual')];
    const kept = [await send('sent', under), await send('failed', under), await send('skipped', 0), await send('sending', 2 * over)];

    const { pass, registry } = r.pass();
    const purged = await pass.run();

    for (const id of gone) assert.equal(await exists(r, 'digest_sends', 'id', id), false, `send ${id} is purged`);
    for (const id of kept) assert.equal(await exists(r, 'digest_sends', 'id', id), true, `send ${id} is kept`);
    assert.equal(purged.digest_sends, 4);
    assert.equal((await purgedRowsMetric(registry)).digest_sends, 4);
  });

  it('deletes sessions and sign-in links just over ENDED_SIGN_INS_KEPT_MS after they ended (expired, idle, used), counted by kind; keeps those just under and valid ones', async () => {
    const organizationId = (await givenOrganization(r.ctx)).id;
    const { rows: [user] } = await r.pool.query<{ id: string }>(
      `INSERT INTO users (organization_id, email, role, status) VALUES ($1, 'ada@acme.example', 'viewer', 'active') RETURNING id`,
      [organizationId],
    );
    const kept = ENDED_SIGN_INS_KEPT_MS;
    const idle = r.ctx.env.SESSION_IDLE_TIMEOUT_MS;
    const minute = 60_000;
    let nth = 0;
    /** A row with its times in milliseconds from now (negative: past); answers its hash, which names it. */
    const session = async (lastSeen: number, expires: number) => {
      const { rows } = await r.pool.query<{ hash: Buffer }>(
        `INSERT INTO sessions (organization_id, user_id, id_hash, created_at, last_seen_at, expires_at)
         VALUES ($1, $2, sha256(convert_to($3, 'UTF8')), now() - interval '30 days', now() + $4::float8 * interval '1 millisecond', now() + $5::float8 * interval '1 millisecond')
         RETURNING id_hash AS hash`,
        [organizationId, user!.id, `session ${nth++}`, lastSeen, expires],
      );
      return rows[0]!.hash.toString('hex');
    };
    const link = async (used: number | null, expires: number) => {
      const { rows } = await r.pool.query<{ hash: Buffer }>(
        `INSERT INTO sign_in_links (organization_id, user_id, token_hash, used_at, expires_at)
         VALUES ($1, $2, sha256(convert_to($3, 'UTF8')), now() + $4::float8 * interval '1 millisecond', now() + $5::float8 * interval '1 millisecond')
         RETURNING token_hash AS hash`,
        [organizationId, user!.id, `link ${nth++}`, used, expires],
      );
      return rows[0]!.hash.toString('hex');
    };
    const goneSessions = [await session(-kept - 2 * minute, -kept - minute), await session(-kept - idle - minute, 3_600_000)];
    const keptSessions = [await session(-kept, -kept + minute), await session(-kept - idle + minute, 3_600_000), await session(0, 3_600_000)];
    const goneLinks = [await link(-kept - minute, -kept + 14 * minute), await link(null, -kept - minute)];
    const keptLinks = [await link(-kept + minute, -kept + 15 * minute), await link(null, -kept + minute), await link(0, 15 * minute), await link(null, 15 * minute)];

    const { pass, registry } = r.pass();
    const purged = await pass.run();

    const left = async (table: string, column: string) =>
      (await r.pool.query<{ hash: Buffer }>(`SELECT ${column} AS hash FROM ${table} WHERE organization_id = $1`, [organizationId])).rows.map((row) => row.hash.toString('hex')).sort();
    assert.deepEqual(await left('sessions', 'id_hash'), [...keptSessions].sort(), 'sessions ended just over the margin (expired, idle) are purged; the others kept');
    assert.deepEqual(await left('sign_in_links', 'token_hash'), [...keptLinks].sort(), 'links used or expired just over the margin are purged; the others kept');
    assert.equal(purged.sessions, goneSessions.length);
    assert.equal(purged.sign_in_links, goneLinks.length);
    const metric = await purgedRowsMetric(registry);
    assert.deepEqual([metric.sessions, metric.sign_in_links], [goneSessions.length, goneLinks.length]);
  });
});

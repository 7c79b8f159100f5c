import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { CaseNotifications } from '../../src/modules/cases/application/case-notifications.js';
import { CaseMailOutbox, WatcherStore } from '../../src/modules/comments/application/comment-ports.js';
import { UsersService } from '../../src/modules/people/application/users.service.js';
import { TransactionRunner } from '../../src/shared/database/transaction.js';
import { eventually } from '../support/automation-helpers.js';
import { caseIdsOf, emailDefinition, givenEmailWorkflow, mail, type MailApp, sendAccepted, startMailApp } from '../support/email-helpers.js';
import { fromDashboard, givenPerson, type Session, uniqueEmail } from '../support/people-helpers.js';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink.js';
import { waitingBackends } from '../support/table-locks.js';
import { closeDb, db, type TestApp } from '../support/test-app.js';

const NOTIFICATION = /^Case #\d+: \d+ updates?$/;
const notificationsTo = (sink: SmtpSink, email: string) => sink.mails.filter((m) => m.to.includes(email) && NOTIFICATION.test(m.parsed.subject ?? ''));
const queuedFor = async (userId: number) => (await db().query('SELECT count(*)::int AS n FROM notification_items WHERE user_id = $1', [userId])).rows[0].n as number;

function comment(t: TestApp, who: Session, caseId: number, body: string, visibility: 'internal' | 'public') {
  return fromDashboard(t, who, 'POST', `/api/admin/v1/cases/${caseId}/comments`, { body, visibility });
}

/** An email workflow's case from `requester`, with an agent of its organization. */
async function emailCase(t: MailApp, requester = uniqueEmail('ada')) {
  const w = await givenEmailWorkflow(t, emailDefinition());
  const first = `<first.${randomBytes(4).toString('hex')}@example.com>`;
  await sendAccepted(t, w.address, mail({ From: requester, To: w.address, Subject: 'Broken box', 'Message-ID': first }, 'It broke\n'));
  const [caseId] = await caseIdsOf(w.workflowId);
  return { w, caseId: caseId!, first, requester, agent: await givenPerson(t, w.org.id, 'agent') };
}

describe('casework notifications without a mail worker: locks, mentions and transactions', () => {
  let t: MailApp;
  before(async () => {
    t = await startMailApp({ ROLE: 'api', RATE_LIMIT_PER_ADDRESS: '0', RATE_LIMIT_PER_CREDENTIAL: '0' });
  });
  after(async () => {
    await t.close();
    await closeDb();
  });

  it('commenting on or watching a case of another organization is 404 without locking it (it answers while the case is locked elsewhere)', async () => {
    const theirs = await emailCase(t);
    const { agent } = await emailCase(t);
    const holder = await db().connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT id FROM cases WHERE id = $1 FOR UPDATE', [theirs.caseId]);
      const waited = new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 10_000).unref());
      const asks = [comment(t, agent, theirs.caseId, 'hello', 'internal'), fromDashboard(t, agent, 'PUT', `/api/admin/v1/cases/${theirs.caseId}/watchers/me`)];
      const answers = await Promise.race([Promise.all(asks), waited]);
      assert.notEqual(answers, 'waited', 'a request waited for the other organization\'s case lock');
      assert.deepEqual((answers as { status: number }[]).map((r) => r.status), [404, 404]);
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
    }
  });

  it('a mention makes a watcher of, and notifies, only an active agent or stronger: not a viewer, nor an invited person who never signed in', async () => {
    const { w, caseId, agent } = await emailCase(t);
    const [colleague, viewer] = [await givenPerson(t, w.org.id, 'agent'), await givenPerson(t, w.org.id, 'viewer')];
    const invited = await t.app.get(UsersService).invite({ actor: { type: 'operator', id: 'operator', name: 'operator' }, address: null }, w.org.id, uniqueEmail('invited'), 'agent');
    const res = await comment(t, agent, caseId, `@${colleague.email} @${viewer.email} @${invited.email} please look`, 'internal');
    assert.equal(res.status, 201, res.text);
    const watchers = await db().query('SELECT user_id FROM case_watchers WHERE organization_id = $1 AND case_id = $2', [w.org.id, caseId]);
    assert.deepEqual(watchers.rows.map((r) => Number(r.user_id)), [colleague.userId]);
    const told = await db().query('SELECT DISTINCT user_id FROM notification_items WHERE organization_id = $1 AND case_id = $2', [w.org.id, caseId]);
    assert.deepEqual(told.rows.map((r) => Number(r.user_id)), [colleague.userId]);
  });

  it('a notification to everyone watching, inside a transaction, reads the watchers in that transaction (no second pool connection)', async () => {
    const { w, caseId } = await emailCase(t);
    const watcher = await givenPerson(t, w.org.id, 'agent');
    await t.app.get(TransactionRunner).run(async (tx) => {
      // Seen only inside this transaction: a read through the pool would find no watcher.
      await t.app.get(WatcherStore).watch(tx, w.org.id, caseId, [watcher.userId]);
      await t.app.get(CaseNotifications).notify({ organizationId: w.org.id, caseId, kind: 'error', summary: 'moved to Error' }, tx);
    });
    assert.equal(await queuedFor(watcher.userId), 1);
  });

  it('the watchers\' notification of a requester\'s reply is queued in the reply\'s own transaction', async () => {
    const { w, caseId, first, requester } = await emailCase(t);
    const watcher = await givenPerson(t, w.org.id, 'agent');
    assert.equal((await fromDashboard(t, watcher, 'PUT', `/api/admin/v1/cases/${caseId}/watchers/me`)).status, 204);
    await sendAccepted(t, w.address, mail({ From: requester, Subject: 'Re: Broken box', 'In-Reply-To': first }, 'Any news?\n'));
    const item = await db().query('SELECT xmin::text AS xid, kind FROM notification_items WHERE user_id = $1', [watcher.userId]);
    const reply = await db().query(`SELECT xmin::text AS xid FROM case_events WHERE case_id = $1 AND type = 'email_received'`, [caseId]);
    assert.deepEqual(item.rows.map((r) => r.kind), ['requester_replied']);
    assert.equal(item.rows[0].xid, reply.rows[0].xid, 'one transaction wrote the reply and its notification');
  });

  it('a sent notification mail deletes exactly the items it listed: an item with a lower id committed after the claim stays for the next mail', async () => {
    const { w, caseId } = await emailCase(t);
    const person = await givenPerson(t, w.org.id, 'agent');
    const key = [w.org.id, person.userId, caseId];
    // Due since forever: the claim below takes this batch before any other.
    await db().query(`INSERT INTO notification_batches (organization_id, user_id, case_id, due_at) VALUES ($1, $2, $3, '-infinity')`, key);
    // A transaction that drew its item's id first and commits it only after the claim (queueing
    // takes the batch's row lock, the next test's case; this stands for any writer that does not).
    const lower = Number((await db().query(`SELECT nextval(pg_get_serial_sequence('notification_items', 'id')) AS id`)).rows[0].id);
    const higher = Number((await db().query(`INSERT INTO notification_items (organization_id, user_id, case_id, kind, summary) VALUES ($1, $2, $3, 'error', 'seen') RETURNING id`, key)).rows[0].id);
    assert.ok(lower < higher);
    const outbox = t.app.get(CaseMailOutbox);
    const [batch] = await outbox.claimBatches(1, 60_000);
    assert.deepEqual([batch?.userId, batch?.items.map((i) => i.summary)], [person.userId, ['seen']]);
    await db().query(`INSERT INTO notification_items (organization_id, id, user_id, case_id, kind, summary) OVERRIDING SYSTEM VALUE VALUES ($1, $4, $2, $3, 'error', 'late')`, [...key, lower]);
    await outbox.batchSent(batch!, 60_000);
    const left = await db().query('SELECT summary FROM notification_items WHERE user_id = $1', [person.userId]);
    assert.deepEqual(left.rows.map((r) => r.summary), ['late']);
    const due = await db().query('SELECT due_at IS NOT NULL AS due FROM notification_batches WHERE user_id = $1', [person.userId]);
    assert.deepEqual(due.rows, [{ due: true }], 'the batch is due again for the item left');
  });

  it('an item queued by a transaction that holds the batch while its mail is settled leaves the batch due for it', async () => {
    const { w, caseId } = await emailCase(t);
    const person = await givenPerson(t, w.org.id, 'agent');
    const key = [w.org.id, person.userId, caseId];
    await db().query(`INSERT INTO notification_batches (organization_id, user_id, case_id, due_at) VALUES ($1, $2, $3, '-infinity')`, key);
    await db().query(`INSERT INTO notification_items (organization_id, user_id, case_id, kind, summary) VALUES ($1, $2, $3, 'error', 'sent')`, key);
    const outbox = t.app.get(CaseMailOutbox);
    const [batch] = await outbox.claimBatches(1, 60_000);
    assert.deepEqual([batch?.userId, batch?.items.map((i) => i.summary)], [person.userId, ['sent']]);
    const waitingBefore = await waitingBackends();
    let settled: Promise<void> | undefined;
    await t.app.get(TransactionRunner).run(async (tx) => {
      // Queued as a mention or a bulk chunk queues it, holding the batch's row until this commits.
      await t.app.get(CaseNotifications).notify({ organizationId: w.org.id, caseId, userIds: [person.userId], kind: 'error', summary: 'late' }, tx);
      settled = outbox.batchSent(batch!, 60_000);
      await eventually('the settle waiting for the batch', async () => ((await waitingBackends()) > waitingBefore ? true : undefined));
    });
    await settled;
    const left = await db().query('SELECT summary FROM notification_items WHERE user_id = $1', [person.userId]);
    assert.deepEqual(left.rows.map((r) => r.summary), ['late']);
    const due = await db().query('SELECT due_at IS NOT NULL AS due FROM notification_batches WHERE user_id = $1', [person.userId]);
    assert.deepEqual(due.rows, [{ due: true }], 'the batch is due for the late item');
  });
});

describe('notification mails the worker sends: giving up, and kinds turned off', () => {
  let t: MailApp;
  let sink: SmtpSink;
  before(async () => {
    sink = await startSmtpSink();
    t = await startMailApp({ SMTP_RELAY_URL: sink.url, RATE_LIMIT_PER_ADDRESS: '0', RATE_LIMIT_PER_CREDENTIAL: '0' });
  });
  after(async () => {
    await t.close();
    await sink.close();
    await closeDb();
  });

  it('a notification the relay keeps refusing is given up once its oldest item waited an hour: its items are deleted, nothing is sent', async () => {
    const { w, caseId, agent } = await emailCase(t);
    const colleague = await givenPerson(t, w.org.id, 'agent');
    sink.refusing = 'mailbox busy';
    try {
      assert.equal((await comment(t, agent, caseId, `@${colleague.email} look`, 'internal')).status, 201);
      await eventually('a refused attempt', async () => {
        const { rows } = await db().query('SELECT attempts FROM notification_batches WHERE user_id = $1', [colleague.userId]);
        return rows[0]?.attempts >= 1 ? true : undefined;
      });
      // An hour of refusals: every failure moved the batch's due time, none the item's age.
      await db().query(`UPDATE notification_items SET created_at = now() - interval '61 minutes' WHERE user_id = $1`, [colleague.userId]);
      await db().query('UPDATE notification_batches SET due_at = now() WHERE user_id = $1 AND due_at IS NOT NULL', [colleague.userId]);
      await eventually('the batch given up', async () => {
        const { rows } = await db().query('SELECT due_at FROM notification_batches WHERE user_id = $1', [colleague.userId]);
        return (await queuedFor(colleague.userId)) === 0 && rows[0]?.due_at === null ? true : undefined;
      }, { timeoutMs: 20_000 });
      assert.deepEqual(notificationsTo(sink, colleague.email), []);
    } finally {
      sink.refusing = undefined;
    }
  });

  it('a watcher who may no longer work cases (made a viewer) is not mailed: the batch is given up and its items go', async () => {
    const { w, caseId } = await emailCase(t);
    const watcher = await givenPerson(t, w.org.id, 'agent');
    assert.equal((await fromDashboard(t, watcher, 'PUT', `/api/admin/v1/cases/${caseId}/watchers/me`)).status, 204);
    await t.app.get(UsersService).changeRole({ actor: { type: 'operator', id: 'operator', name: 'operator' }, address: null }, w.org.id, watcher.userId, 'viewer');
    await t.app.get(CaseNotifications).notify({ organizationId: w.org.id, caseId, kind: 'error', summary: 'moved to Error' });
    await eventually('the batch settled', async () => {
      const { rows } = await db().query('SELECT due_at FROM notification_batches WHERE user_id = $1', [watcher.userId]);
      return (await queuedFor(watcher.userId)) === 0 && rows[0]?.due_at === null ? true : undefined;
    });
    assert.deepEqual(notificationsTo(sink, watcher.email), []);
  });

  it('a notification already queued for a kind the person then turns off is not sent, and its item goes', async () => {
    const { w, caseId, agent } = await emailCase(t);
    const colleague = await givenPerson(t, w.org.id, 'agent');
    await comment(t, agent, caseId, `@${colleague.email} one`, 'internal');
    await eventually('the first mail', async () => (notificationsTo(sink, colleague.email).length === 1 ? true : undefined));
    await comment(t, agent, caseId, `@${colleague.email} two`, 'internal');
    assert.equal(await queuedFor(colleague.userId), 1, 'queued, waiting for the minute to pass');
    const off = await fromDashboard(t, colleague, 'PUT', '/api/admin/v1/me/notifications', { assigned: true, mentioned: false, watched: true });
    assert.equal(off.status, 200, off.text);
    // The minute passes.
    await db().query(`UPDATE notification_batches SET due_at = now(), last_sent_at = now() - interval '1 minute' WHERE user_id = $1`, [colleague.userId]);
    await eventually('the batch settled', async () => {
      const { rows } = await db().query('SELECT due_at FROM notification_batches WHERE user_id = $1', [colleague.userId]);
      return (await queuedFor(colleague.userId)) === 0 && rows[0]?.due_at === null ? true : undefined;
    });
    assert.equal(notificationsTo(sink, colleague.email).length, 1, 'nothing more was mailed');
  });
});

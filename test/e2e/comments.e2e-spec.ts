import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { eventually, startReceiver } from '../support/automation-helpers.js';
import { statusDefinition } from '../support/cases-api.js';
import { caseIdsOf, emailDefinition, type EmailWorkflow, givenEmailWorkflow, mail, type MailApp, sendAccepted, startMailApp, timeline } from '../support/email-helpers.js';
import { fromDashboard, givenPerson, type Session, uniqueEmail } from '../support/people-helpers.js';
import { createToken, createWorkflow } from '../support/scenario.js';
import { type SmtpSink, type SunkMail, startSmtpSink } from '../support/smtp-sink.js';
import { closeDb, db, startTestApp, type TestApp } from '../support/test-app.js';

const NOTIFICATION = /^Case #\d+: \d+ updates?$/;
const repliesIn = (sink: SmtpSink, messageId: string) => sink.mails.filter((m) => m.parsed.messageId === messageId);
const notificationsTo = (sink: SmtpSink, email: string) => sink.mails.filter((m) => m.to.includes(email) && NOTIFICATION.test(m.parsed.subject ?? ''));
const auditActions = async (organizationId: number) =>
  (await db().query<{ action: string }>('SELECT action FROM audit_entries WHERE organization_id = $1 ORDER BY id', [organizationId])).rows.map((r) => r.action);

async function comment(t: TestApp, who: Session, caseId: number, body: string, visibility: 'internal' | 'public') {
  return fromDashboard(t, who, 'POST', `/api/admin/v1/cases/${caseId}/comments`, { body, visibility });
}

/** An email workflow whose first case came from ada (with bob in Cc and the inbound address itself in To), with an agent and another agent to mention. */
async function emailCase(t: MailApp): Promise<{ w: EmailWorkflow; caseId: number; first: string; agent: Session; colleague: Session; ada: string; bob: string }> {
  const w = await givenEmailWorkflow(t, emailDefinition());
  const first = `<first.${randomBytes(4).toString('hex')}@example.com>`;
  const [ada, bob] = [uniqueEmail('ada'), uniqueEmail('bob')];
  await sendAccepted(t, w.address, mail({ From: ada, To: w.address, Cc: `${bob}, ${w.address}`, Subject: 'Broken box', 'Message-ID': first, References: '<older@example.com>' }, 'It broke\n'));
  const [caseId] = await caseIdsOf(w.workflowId);
  return { w, caseId: caseId!, first, agent: await givenPerson(t, w.org.id, 'agent'), colleague: await givenPerson(t, w.org.id, 'agent'), ada, bob };
}

describe('comments, public replies and notifications (casework.md sections 3 and 4)', () => {
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

  it('an internal note is stored, listed oldest first in exact pages, on the timeline without its body, audited, and mailed to no requester', async () => {
    const { w, caseId, agent, ada } = await emailCase(t);
    const bodies = ['first note', 'second note', 'third note'];
    for (const body of bodies) {
      const res = await comment(t, agent, caseId, body, 'internal');
      assert.equal(res.status, 201, res.text);
      assert.deepEqual(Object.keys(res.body.comment).sort(), ['author', 'body', 'created_at', 'delivery', 'id', 'visibility']);
      assert.deepEqual([res.body.comment.author, res.body.comment.visibility, res.body.comment.body, res.body.comment.delivery], [{ id: agent.userId, email: agent.email }, 'internal', body, null]);
    }
    const first = await fromDashboard(t, agent, 'GET', `/api/admin/v1/cases/${caseId}/comments?limit=2`);
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(first.body.comments.map((c: any) => c.body), bodies.slice(0, 2));
    const second = await fromDashboard(t, agent, 'GET', `/api/admin/v1/cases/${caseId}/comments?limit=2&after=${first.body.next_cursor}`);
    assert.deepEqual([second.body.comments.map((c: any) => c.body), second.body.next_cursor], [bodies.slice(2), null]);
    const rows = (await timeline(t, w, caseId)).filter((e) => e.type === 'comment_added');
    assert.equal(rows.length, 3);
    assert.deepEqual(rows[0], { ...rows[0], by: { type: 'user', id: agent.userId, name: agent.email }, visibility: 'internal', author: { id: agent.userId, email: agent.email } });
    assert.ok(!JSON.stringify(rows).includes('note'), 'the timeline holds no body');
    const api = await t.request('GET', `/api/external/v1/workflows/${w.workflowId}/cases/${caseId}`, { token: w.apiToken });
    assert.ok(!api.text.includes('note'), 'the cases API shows no comment');
    assert.deepEqual((await auditActions(w.org.id)).filter((a) => a === 'comment.created').length, 3);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.deepEqual(sink.mails.filter((m) => m.to.includes(ada)), [], 'nothing was mailed to the requester');
  });

  it('subscribers get case.commented with the comment\'s visibility; only a public reply carries its body', async () => {
    const { w, caseId, agent } = await emailCase(t);
    const receiver = await startReceiver(() => ({ status: 204 }));
    try {
      const sub = await t.request('POST', '/api/admin/v1/subscriptions', { token: w.org.adminToken, body: { url: `${receiver.url}/hooks`, events: ['case.commented'] } });
      assert.equal(sub.status, 201, sub.text);
      const note = await comment(t, agent, caseId, 'secret internal note', 'internal');
      const reply = await comment(t, agent, caseId, 'Dear customer', 'public');
      const bodies = await eventually('two deliveries', async () => (receiver.requests.length >= 2 ? receiver.requests.map((r) => JSON.parse(r.body)) : undefined));
      const byComment = new Map(bodies.map((b: any) => [b.data.comment.id, b]));
      const author = { id: agent.userId };
      assert.deepEqual(byComment.get(note.body.comment.id).data.comment, { id: note.body.comment.id, visibility: 'internal', author });
      assert.deepEqual(byComment.get(reply.body.comment.id).data.comment, { id: reply.body.comment.id, visibility: 'public', author, body: 'Dear customer' });
      assert.ok(bodies.every((b: any) => b.type === 'case.commented' && b.data.case.id === caseId));
      assert.ok(!receiver.requests.some((r) => r.body.includes('secret internal note')));
      assert.ok(!receiver.requests.some((r) => r.body.includes(agent.email)), 'no staff email leaves the organization');
    } finally {
      await receiver.close();
    }
  });

  it('a public reply goes to the first message\'s sender and Cc (not the service\'s own address), from the inbound address, in the thread; the answer threads back into the case', async () => {
    const { w, caseId, first, agent, ada, bob } = await emailCase(t);
    const res = await comment(t, agent, caseId, 'We are on it.\nRegards', 'public');
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(res.body.comment.delivery, { to: [ada, bob], status: 'queued' });
    const sent = await eventually('the reply in the sink', async () => sink.mails.find((m) => m.to.includes(ada)));
    assert.deepEqual(sent.to.sort(), [ada, bob].sort());
    assert.equal(sent.parsed.from?.value[0]?.address, w.address);
    assert.equal(sent.parsed.subject, 'Re: Broken box');
    assert.equal(sent.parsed.inReplyTo, first);
    assert.deepEqual([sent.parsed.references].flat(), ['<older@example.com>', first]);
    assert.equal(sent.parsed.text?.trim(), 'We are on it.\nRegards');
    assert.equal(sent.parsed.headers.get('auto-submitted'), undefined, 'a person wrote it');
    const ourId = sent.parsed.messageId!;
    await eventually('the comment shows the mail sent', async () => {
      const list = await fromDashboard(t, agent, 'GET', `/api/admin/v1/cases/${caseId}/comments`);
      return list.body.comments[0].delivery.status === 'sent' ? true : undefined;
    });

    // The requester answers our reply only (In-Reply-To our Message-ID, no References to the first message).
    await sendAccepted(t, w.address, mail({ From: ada, Subject: 'Re: Broken box', 'In-Reply-To': ourId }, 'Thanks!\n'));
    assert.deepEqual(await caseIdsOf(w.workflowId), [caseId], 'no new case');
    const received = (await timeline(t, w, caseId)).filter((e) => e.type === 'email_received');
    assert.deepEqual(received.map((e) => [e.text, e.automatic]), [['Thanks!\n', undefined]]);
    assert.equal(repliesIn(sink, ourId).length, 1);
  });

  it('a reply the relay refuses stays queued with the relay\'s answer, is tried again, and is sent once the relay takes it', async () => {
    const { w, caseId, agent, ada } = await emailCase(t);
    sink.refusing = 'mailbox busy';
    try {
      assert.equal((await comment(t, agent, caseId, 'Retry me', 'public')).status, 201);
      const refused = await eventually('a refused attempt', async () => {
        const { rows } = await db().query('SELECT status, attempts, error FROM comment_mails WHERE organization_id = $1', [w.org.id]);
        return rows[0]?.attempts >= 1 && rows[0].error ? rows[0] : undefined;
      });
      assert.equal(refused.status, 'queued');
      assert.match(refused.error, /mailbox busy/);
      assert.equal((await fromDashboard(t, agent, 'GET', `/api/admin/v1/cases/${caseId}/comments`)).body.comments[0].delivery.status, 'queued');
    } finally {
      sink.refusing = undefined;
    }
    const sent = await eventually('the reply, once taken', async () => sink.mails.find((m) => m.to.includes(ada)), { timeoutMs: 15_000 });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    assert.equal(repliesIn(sink, sent.parsed.messageId!).length, 1);
    assert.equal((await fromDashboard(t, agent, 'GET', `/api/admin/v1/cases/${caseId}/comments`)).body.comments[0].delivery.status, 'sent');
  });

  it('a workflow\'s requester_attribute must point at an email attribute; a public reply goes there, and a case without a requester is 422', async () => {
    const org = (await givenEmailWorkflow(t)).org;
    const bad = await t.request('POST', '/api/admin/v1/workflows', { token: org.adminToken, body: statusDefinition({ attributes: { name: { type: 'string' } }, requester_attribute: '/name' }) });
    assert.equal(bad.status, 422, bad.text);
    assert.ok(JSON.stringify(bad.body).includes('/requester_attribute'));
    const workflowId = await createWorkflow(t, org, statusDefinition({ attributes: { customer_email: { type: 'string', format: 'email' } }, requester_attribute: '/customer_email' }));
    const api = await createToken(t, org, 'api');
    const agent = await givenPerson(t, org.id, 'agent');
    const customer = uniqueEmail('customer');
    const withRequester = await t.request('POST', `/api/external/v1/workflows/${workflowId}/cases`, { token: api.secret, body: { subject: 'Refund', attributes: { customer_email: customer } } });
    const without = await t.request('POST', `/api/external/v1/workflows/${workflowId}/cases`, { token: api.secret, body: { subject: 'Refund' } });
    assert.equal((await comment(t, agent, withRequester.body.case.id, 'Refunded.', 'public')).status, 201);
    const refused = await comment(t, agent, without.body.case.id, 'Refunded.', 'public');
    assert.equal(refused.status, 422, refused.text);
    assert.equal(typeof refused.body.error, 'string');
    const sent = await eventually('the reply to the attribute\'s address', async () => sink.mails.find((m) => m.to.includes(customer)));
    assert.equal(sent.parsed.subject, 'Re: Refund');
  });

  it('a reply subject made from a case subject with CR/LF stays one header: no injected Bcc or recipient', async () => {
    const org = (await givenEmailWorkflow(t)).org;
    const workflowId = await createWorkflow(t, org, statusDefinition({ attributes: { customer_email: { type: 'string', format: 'email' } }, requester_attribute: '/customer_email' }));
    const api = await createToken(t, org, 'api');
    const agent = await givenPerson(t, org.id, 'agent');
    const [customer, intruder] = [uniqueEmail('customer'), uniqueEmail('intruder')];
    const subject = `Help\r\nBcc: ${intruder}\r\nX-Injected: yes\n\nbody`;
    const created = await t.request('POST', `/api/external/v1/workflows/${workflowId}/cases`, { token: api.secret, body: { subject, attributes: { customer_email: customer } } });
    assert.equal(created.status, 201, created.text);
    assert.equal((await comment(t, agent, created.body.case.id, 'Hello', 'public')).status, 201);
    const sent = await eventually('the reply', async () => sink.mails.find((m) => m.to.includes(customer)));
    assert.deepEqual(sent.to, [customer]);
    assert.equal(sent.parsed.subject, `Re: Help Bcc: ${intruder} X-Injected: yes body`);
    assert.equal(sent.parsed.headers.get('x-injected'), undefined);
    assert.equal(sent.parsed.bcc, undefined);
    assert.ok(!sink.mails.some((m) => m.to.includes(intruder)));
  });

  it('a mention of a person of the organization makes them a watcher and mails them; an address outside the organization is never mailed', async () => {
    const { w, caseId, agent, colleague } = await emailCase(t);
    const outsider = uniqueEmail('outsider');
    const res = await comment(t, agent, caseId, `@${colleague.email} and @${outsider}: please look`, 'internal');
    assert.equal(res.status, 201, res.text);
    const [notice] = await eventually('the mention mail', async () => (notificationsTo(sink, colleague.email).length ? notificationsTo(sink, colleague.email) : undefined));
    assert.match(notice!.parsed.text ?? '', new RegExp(`${agent.email.replace(/[.]/g, '\\.')} mentioned you in a note on case #${caseId}`));
    assert.ok(!(notice!.parsed.text ?? '').includes('please look'), 'the note\'s body is not mailed');
    const watchers = await db().query('SELECT user_id FROM case_watchers WHERE organization_id = $1 AND case_id = $2', [w.org.id, caseId]);
    assert.deepEqual(watchers.rows.map((r) => Number(r.user_id)), [colleague.userId]);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.ok(!sink.mails.some((m) => m.to.includes(outsider)), 'the outsider got nothing');
  });

  it('watchers are told once a minute at most: a second event within the minute waits and is summed up with the next', async () => {
    const { w, caseId, first, agent, colleague, ada } = await emailCase(t);
    assert.equal((await fromDashboard(t, colleague, 'PUT', `/api/admin/v1/cases/${caseId}/watchers/me`)).status, 204);
    await comment(t, agent, caseId, `@${colleague.email} one`, 'internal');
    await eventually('the first mail', async () => (notificationsTo(sink, colleague.email).length === 1 ? true : undefined));
    await comment(t, agent, caseId, `@${colleague.email} two`, 'internal');
    await sendAccepted(t, w.address, mail({ From: ada, Subject: 'Re: Broken box', 'In-Reply-To': first }, 'more\n'));
    await new Promise((resolve) => setTimeout(resolve, 2000));
    assert.equal(notificationsTo(sink, colleague.email).length, 1, 'nothing more within the minute');
    // The minute passes.
    await db().query(`UPDATE notification_batches SET due_at = now(), last_sent_at = now() - interval '1 minute' WHERE organization_id = $1 AND case_id = $2`, [w.org.id, caseId]);
    const second = await eventually('the summary', async () => notificationsTo(sink, colleague.email)[1]);
    assert.equal(second.parsed.subject, `Case #${caseId}: 2 updates`);
    assert.match(second.parsed.text ?? '', /mentioned you/);
    assert.match(second.parsed.text ?? '', /The requester replied/);
  });

  it('each notification mail unsubscribes its kind in one click; a turned-off kind is not mailed, an altered link is 404', async () => {
    const { w, caseId, agent, colleague } = await emailCase(t);
    await comment(t, agent, caseId, `@${colleague.email} hi`, 'internal');
    const [notice] = await eventually('the mail', async () => (notificationsTo(sink, colleague.email).length ? notificationsTo(sink, colleague.email) : undefined));
    const headers = `\r\n${notice!.raw.slice(0, notice!.raw.indexOf('\r\n\r\n')).replace(/\r\n[ \t]+/g, ' ')}\r\n`;
    assert.ok(headers.includes('\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n'), headers);
    const path = new URL(/\r\nList-Unsubscribe: <([^>]+)>\r\n/.exec(headers)![1]!).pathname;
    assert.ok((notice!.parsed.text ?? '').includes(path), 'the text links to it too');
    const altered = await t.request('POST', `${path.slice(0, -3)}AAA`, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, rawBody: 'List-Unsubscribe=One-Click' });
    assert.equal(altered.status, 404);
    const shown = await t.request('GET', path);
    assert.equal(shown.status, 200);
    assert.deepEqual((await fromDashboard(t, colleague, 'GET', '/api/admin/v1/me/notifications')).body, { assigned: true, mentioned: true, watched: true });
    const done = await t.request('POST', path, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, rawBody: 'List-Unsubscribe=One-Click' });
    assert.equal(done.status, 200, done.text);
    assert.deepEqual((await fromDashboard(t, colleague, 'GET', '/api/admin/v1/me/notifications')).body, { assigned: true, mentioned: false, watched: true });
    await comment(t, agent, caseId, `@${colleague.email} again`, 'internal');
    const queued = await db().query('SELECT count(*)::int AS n FROM notification_items WHERE user_id = $1', [colleague.userId]);
    assert.equal(queued.rows[0].n, 0);
    const put = await fromDashboard(t, colleague, 'PUT', '/api/admin/v1/me/notifications', { assigned: false, mentioned: true, watched: true });
    assert.deepEqual([put.status, put.body], [200, { assigned: false, mentioned: true, watched: true }]);
    const token = await t.request('GET', '/api/admin/v1/me/notifications', { token: w.org.adminToken });
    assert.equal(token.status, 422);
  });

  it('an auto-reply or bounce answering a public reply is kept as automatic and mails no one (no loop)', async () => {
    const { w, caseId, agent, colleague, ada, bob } = await emailCase(t);
    assert.equal((await fromDashboard(t, colleague, 'PUT', `/api/admin/v1/cases/${caseId}/watchers/me`)).status, 204);
    await comment(t, agent, caseId, 'Any news?', 'public');
    const ours = await eventually('the reply', async () => sink.mails.find((m) => m.to.includes(ada)));
    // The sink is shared by the whole file: only mail to this case's people can tell of a loop here.
    const people = [ada, bob, agent.email, colleague.email];
    const mailedToPeople = () => sink.mails.filter((m) => m.to.some((address) => people.includes(address)));
    const before = mailedToPeople().length;
    await sendAccepted(t, w.address, mail({ From: ada, 'X-Autoreply': 'yes', Subject: 'Out of office', 'In-Reply-To': ours.parsed.messageId! }, 'away\n'));
    await sendAccepted(t, w.address, mail({ From: `MAILER-DAEMON@example.com`, Subject: 'Undelivered', 'In-Reply-To': ours.parsed.messageId! }, 'bounce\n'));
    const received = (await timeline(t, w, caseId)).filter((e) => e.type === 'email_received');
    assert.deepEqual(received.map((e) => e.automatic), [true, true]);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const since = mailedToPeople().slice(before);
    assert.deepEqual(since.map((m) => [m.to, m.parsed.subject]), [], 'nothing was mailed');
    const queued = await db().query('SELECT count(*)::int AS n FROM notification_items WHERE organization_id = $1', [w.org.id]);
    assert.equal(queued.rows[0].n, 0);
  });

  it('a 64 KB note mentioning many people is stored once: each notification holds a bounded summary, never the body', async () => {
    const { w, caseId, agent } = await emailCase(t);
    const people = await Promise.all([1, 2, 3, 4, 5, 6].map(() => givenPerson(t, w.org.id, 'agent')));
    const mentions = people.map((p) => `@${p.email}`).join(' ');
    const body = `${mentions} ${'x'.repeat(65_536 - mentions.length - 1)}`;
    assert.equal((await comment(t, agent, caseId, body, 'internal')).status, 201);
    assert.equal((await comment(t, agent, caseId, `${body}y`, 'internal')).status, 422);
    const stored = await db().query('SELECT count(*)::int AS comments, sum(length(body))::int AS bytes FROM case_comments WHERE organization_id = $1', [w.org.id]);
    assert.deepEqual(stored.rows[0], { comments: 1, bytes: 65_536 });
    const items = await db().query('SELECT max(length(summary))::int AS longest FROM notification_items WHERE organization_id = $1', [w.org.id]);
    assert.ok(items.rows[0].longest === null || items.rows[0].longest <= 300);
  });

  it('the admin case shows how many people watch it, and watching=true lists the cases the caller watches, in exact pages', async () => {
    const { w, caseId, agent, colleague } = await emailCase(t);
    await sendAccepted(t, w.address, mail({ From: uniqueEmail('carl'), Subject: 'Second' }, 'again\n'));
    const [, other] = await caseIdsOf(w.workflowId);
    for (const id of [caseId, other!]) assert.equal((await fromDashboard(t, agent, 'PUT', `/api/admin/v1/cases/${id}/watchers/me`)).status, 204);
    assert.equal((await fromDashboard(t, colleague, 'PUT', `/api/admin/v1/cases/${caseId}/watchers/me`)).status, 204);
    assert.equal((await fromDashboard(t, colleague, 'PUT', `/api/admin/v1/cases/${caseId}/watchers/me`)).status, 204, 'watching again changes nothing');
    const shown = await fromDashboard(t, agent, 'GET', `/api/admin/v1/cases/${caseId}`);
    assert.equal(shown.body.case.watchers, 2);
    const firstPage = await fromDashboard(t, agent, 'GET', '/api/admin/v1/cases?watching=true&limit=1');
    assert.deepEqual([firstPage.body.cases.map((c: any) => [c.id, c.watchers]), typeof firstPage.body.next_cursor], [[[other, 1]], 'string']);
    const secondPage = await fromDashboard(t, agent, 'GET', `/api/admin/v1/cases?watching=true&limit=1&cursor=${firstPage.body.next_cursor}`);
    assert.deepEqual(secondPage.body.cases.map((c: any) => c.id), [caseId]);
    const thirdPage = secondPage.body.next_cursor && (await fromDashboard(t, agent, 'GET', `/api/admin/v1/cases?watching=true&limit=1&cursor=${secondPage.body.next_cursor}`));
    assert.deepEqual(thirdPage ? thirdPage.body.cases : [], []);
    assert.deepEqual((await fromDashboard(t, colleague, 'GET', '/api/admin/v1/cases?watching=true')).body.cases.map((c: any) => c.id), [caseId]);
    assert.equal((await fromDashboard(t, colleague, 'DELETE', `/api/admin/v1/cases/${caseId}/watchers/me`)).status, 204);
    assert.deepEqual((await fromDashboard(t, colleague, 'GET', '/api/admin/v1/cases?watching=true')).body.cases, []);
    assert.equal((await t.request('GET', '/api/admin/v1/cases?watching=true', { token: w.org.adminToken })).status, 422);
    assert.equal((await t.request('GET', '/api/admin/v1/cases?watching=yes', { token: w.org.adminToken })).status, 422);
  });

  it('the assignee always counts as watching: once in the watchers count, in watching=true without watching, and told when the requester replies', async () => {
    const { w, caseId, first, agent, colleague, ada } = await emailCase(t);
    const quiet = await fromDashboard(t, colleague, 'PUT', '/api/admin/v1/me/notifications', { assigned: false, mentioned: true, watched: true });
    assert.equal(quiet.status, 200, quiet.text);
    const assigned = await fromDashboard(t, agent, 'PATCH', `/api/admin/v1/cases/${caseId}`, { assignee_id: colleague.userId });
    assert.equal(assigned.status, 200, assigned.text);
    assert.equal(assigned.body.case.watchers, 1);
    assert.deepEqual((await fromDashboard(t, colleague, 'GET', '/api/admin/v1/cases?watching=true')).body.cases.map((c: any) => [c.id, c.watchers]), [[caseId, 1]]);
    assert.equal((await fromDashboard(t, colleague, 'PUT', `/api/admin/v1/cases/${caseId}/watchers/me`)).status, 204);
    assert.equal((await fromDashboard(t, agent, 'GET', `/api/admin/v1/cases/${caseId}`)).body.case.watchers, 1, 'an assignee who also watches counts once');
    assert.equal((await fromDashboard(t, colleague, 'DELETE', `/api/admin/v1/cases/${caseId}/watchers/me`)).status, 204);
    assert.deepEqual((await fromDashboard(t, colleague, 'GET', '/api/admin/v1/cases?watching=true')).body.cases.map((c: any) => c.id), [caseId]);
    assert.deepEqual((await fromDashboard(t, agent, 'GET', '/api/admin/v1/cases?watching=true')).body.cases, []);
    await sendAccepted(t, w.address, mail({ From: ada, Subject: 'Re: Broken box', 'In-Reply-To': first }, 'Any news?\n'));
    const [notice] = await eventually('the mail of the reply', async () => (notificationsTo(sink, colleague.email).length ? notificationsTo(sink, colleague.email) : undefined));
    assert.match(notice!.parsed.text ?? '', /requester replied/);
  });

  it('a person a case is assigned to is mailed once; not who assigns it to themselves, nor who turned `assigned` off', async () => {
    const { w, caseId, agent, colleague } = await emailCase(t);
    await sendAccepted(t, w.address, mail({ From: uniqueEmail('carl'), Subject: 'Second' }, 'again\n'));
    const [, other] = await caseIdsOf(w.workflowId);
    const quiet = await givenPerson(t, w.org.id, 'agent');
    assert.equal((await fromDashboard(t, quiet, 'PUT', '/api/admin/v1/me/notifications', { assigned: false, mentioned: true, watched: true })).status, 200);
    const res = await fromDashboard(t, agent, 'PATCH', `/api/admin/v1/cases/${caseId}`, { assignee_id: colleague.userId, priority: 'high' });
    assert.equal(res.status, 200, res.text);
    assert.equal((await fromDashboard(t, agent, 'PATCH', `/api/admin/v1/cases/${other}`, { assignee_id: agent.userId })).status, 200);
    assert.equal((await fromDashboard(t, agent, 'PATCH', `/api/admin/v1/cases/${other}`, { assignee_id: quiet.userId })).status, 200);
    const [notice] = await eventually('the assignment mail', async () => (notificationsTo(sink, colleague.email).length ? notificationsTo(sink, colleague.email) : undefined));
    assert.match(notice!.parsed.text ?? '', new RegExp(`Case #${caseId} was assigned to you`));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.equal(notificationsTo(sink, colleague.email).length, 1);
    assert.deepEqual([...notificationsTo(sink, agent.email), ...notificationsTo(sink, quiet.email)], []);
  });

  it('a watcher is mailed when the case moves to Error; PUT and DELETE of watchers/me answer 204', async () => {
    const org = (await givenEmailWorkflow(t)).org;
    const workflowId = await createWorkflow(t, org, statusDefinition({ automations: { Open: [{ wait: { seconds: 1 } }, { fail: 'boom' }] } }));
    const api = await createToken(t, org, 'api');
    const [watcher, leaver] = [await givenPerson(t, org.id, 'agent'), await givenPerson(t, org.id, 'agent')];
    const created = await t.request('POST', `/api/external/v1/workflows/${workflowId}/cases`, { token: api.secret, body: { subject: 'Doomed' } });
    const caseId = created.body.case.id;
    assert.equal((await fromDashboard(t, watcher, 'PUT', `/api/admin/v1/cases/${caseId}/watchers/me`)).status, 204);
    assert.equal((await fromDashboard(t, leaver, 'PUT', `/api/admin/v1/cases/${caseId}/watchers/me`)).status, 204);
    assert.equal((await fromDashboard(t, leaver, 'DELETE', `/api/admin/v1/cases/${caseId}/watchers/me`)).status, 204);
    const [notice] = await eventually('the Error mail', async () => (notificationsTo(sink, watcher.email).length ? notificationsTo(sink, watcher.email) : undefined));
    assert.match(notice!.parsed.text ?? '', /moved to Error/);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    assert.deepEqual(notificationsTo(sink, leaver.email), []);
    assert.ok((await auditActions(org.id)).includes('case.unwatched'));
  });
});

describe('a public reply\'s mail when the worker is gone between the 201 and the send', () => {
  it('nothing is sent while no worker runs; two workers started afterwards send it exactly once', async () => {
    const sink = await startSmtpSink();
    const env = { SMTP_RELAY_URL: sink.url, RATE_LIMIT_PER_ADDRESS: '0', RATE_LIMIT_PER_CREDENTIAL: '0' };
    let api: MailApp | undefined = await startMailApp({ ...env, ROLE: 'api' });
    let workers: TestApp[] = [];
    try {
      const { caseId, agent, ada } = await emailCase(api);
      const res = await comment(api, agent, caseId, 'Sent once', 'public');
      assert.equal(res.status, 201, res.text);
      // The API process ends right after the 201: no process sends anything now.
      await api.close();
      api = undefined;
      await new Promise((resolve) => setTimeout(resolve, 1500));
      assert.deepEqual(sink.mails.filter((m: SunkMail) => m.to.includes(ada)), []);
      workers = await Promise.all([startTestApp({ env: { ...env, ROLE: 'worker' } }), startTestApp({ env: { ...env, ROLE: 'worker' } })]);
      const sent = await eventually('the reply', async () => sink.mails.find((m) => m.to.includes(ada)));
      await new Promise((resolve) => setTimeout(resolve, 2000));
      assert.equal(repliesIn(sink, sent.parsed.messageId!).length, 1);
      const row = await db().query('SELECT status, attempts FROM comment_mails WHERE message_id = $1', [sent.parsed.messageId]);
      assert.deepEqual(row.rows, [{ status: 'sent', attempts: 1 }]);
    } finally {
      await Promise.all([api, ...workers].map((app) => app?.close()));
      await sink.close();
      await closeDb();
    }
  });
});

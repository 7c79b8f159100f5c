/**
 * Merging a case into another (casework.md, section 6): the merged case closes as `Merged`
 * through the case's own rules, both timelines say so, the merged case's email messages show
 * on the target, and replies to its thread land there; every refusal the contract names.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { CaseEmailsService } from '../../src/modules/cases/application/case-emails.service.js';
import { eventually, isolatedRedisPrefix } from '../support/automation-helpers.js';
import { AUDIT } from '../support/audit-helpers.js';
import { createdCaseId, givenCasesWorkflow, anotherWorkflow, patchCase, storedCase, timeline as caseTimeline } from '../support/cases-api.js';
import { adminCase, caseIdsOf, type EmailWorkflow, emailDefinition, givenEmailWorkflow, mail, type MailApp, sendAccepted, startMailApp, timeline } from '../support/email-helpers.js';
import { fromDashboard, givenMember, givenOwnedOrganization } from '../support/people-helpers.js';
import { createOrganization } from '../support/scenario.js';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink.js';
import { closeDb, db, type InjectResult } from '../support/test-app.js';

const merge = (t: MailApp, token: string, caseId: number, into: unknown): Promise<InjectResult> =>
  t.request('POST', `/api/admin/v1/cases/${caseId}/merge`, { token, body: { into } });

const runStatuses = async (caseId: number) =>
  (await db().query<{ status: string }>('SELECT status FROM workflow_runs WHERE case_id = $1 ORDER BY id', [caseId])).rows.map((r) => r.status);
const outbox = async (caseId: number) =>
  (await db().query<{ type: string }>('SELECT type FROM outbox_events WHERE case_id = $1 ORDER BY id', [caseId])).rows.map((r) => r.type);

/** A message as a mail client sends it, with a Message-ID of its own; `extra` adds headers (In-Reply-To, ...). */
function message(subject: string, text: string, extra: Record<string, string> = {}): { id: string; text: string } {
  const id = `<${randomBytes(6).toString('hex')}@example.com>`;
  return { id, text: mail({ From: 'ada@example.com', Subject: subject, 'Message-ID': id, ...extra }, text) };
}

/** A message with one attached file. */
function withFile(subject: string, bytes: Buffer): { id: string; text: string } {
  const id = `<${randomBytes(6).toString('hex')}@example.com>`;
  const body = [
    '--b', 'Content-Type: text/plain', '', 'see attached', '--b', 'Content-Type: application/octet-stream', 'Content-Transfer-Encoding: base64',
    'Content-Disposition: attachment; filename=data.txt', '', bytes.toString('base64').replace(/.{76}/g, '$&\n'), '--b--', '',
  ].join('\n');
  return { id, text: mail({ From: 'ada@example.com', Subject: subject, 'Message-ID': id, 'Content-Type': 'multipart/mixed; boundary=b' }, body) };
}

describe('merging cases', () => {
  let t: MailApp;
  let sink: SmtpSink;

  before(async () => {
    sink = await startSmtpSink();
    t = await startMailApp({ SMTP_RELAY_URL: sink.url, REDIS_PREFIX: isolatedRedisPrefix() });
  });
  after(async () => {
    await t?.close();
    await sink?.close();
    await closeDb();
  });

  /** A new case of the email workflow from `sent`; its id. */
  async function mailedCase(w: EmailWorkflow, sent: { text: string }): Promise<number> {
    const before = new Set(await caseIdsOf(w.workflowId));
    await sendAccepted(t, w.address, sent.text);
    const created = (await caseIdsOf(w.workflowId)).filter((id) => !before.has(id));
    assert.equal(created.length, 1, `one new case: ${created.join(', ')}`);
    return created[0]!;
  }

  it('closes the merged case as Merged through its rules: Closed\'s run starts, subscribers hear the move, both timelines say so, audited; the answer is the target', async () => {
    const w = await givenEmailWorkflow(t, emailDefinition({ automations: { Closed: [{ set_attributes: { archived: true } }] } }));
    const sub = await t.request('POST', '/api/admin/v1/subscriptions', { token: w.org.adminToken, body: { url: 'http://127.0.0.1:9/hooks', events: ['case.status_changed', 'case.closed'] } });
    assert.equal(sub.status, 201, sub.text);
    const merged = await mailedCase(w, message('Printer jam', 'it jams\n'));
    const into = await mailedCase(w, message('Printer jams again', 'still\n'));

    const res = await merge(t, w.org.adminToken, merged, into);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body), ['case']);
    assert.equal(res.body.case.id, into);
    assert.equal(res.body.case.status, 'Open');
    assert.equal(res.body.case.source_type, 'Email', 'the admin representation');

    const closed = await adminCase(t, w, merged);
    assert.deepEqual([closed.status, closed.outcome], ['Closed', 'Merged']);
    assert.deepEqual(await runStatuses(merged), ['Closed'], 'Closed\'s run started, as a move through the cases API starts it');
    assert.deepEqual(await outbox(merged), ['case.status_changed', 'case.closed']);
    assert.deepEqual(await outbox(into), [], 'the target did not move');

    const mergedEvents = await timeline(t, w, merged);
    const at = mergedEvents.findIndex((e) => e.type === 'merged_into');
    const [mergedInto, moved] = mergedEvents.slice(at, at + 2);
    assert.deepEqual([mergedInto.type, mergedInto.case_id, mergedInto.by.type], ['merged_into', into, 'admin_token']);
    assert.deepEqual([moved.type, moved.from, moved.to, moved.outcome], ['status_changed', 'Open', 'Closed', 'Merged']);
    const mergedFrom = (await timeline(t, w, into)).find((e) => e.type === 'merged_from');
    assert.equal(mergedFrom?.case_id, merged);

    const entries = await eventually('the merge\'s audit entry', async () => {
      const audit = await t.request('GET', `${AUDIT}?action=case.merged&target=case:${merged}`, { token: w.org.adminToken });
      assert.equal(audit.status, 200, audit.text);
      return audit.body.entries.length ? audit.body.entries : undefined;
    });
    assert.equal(entries.length, 1);
    assert.deepEqual([entries[0].summary, entries[0].actor.type], [{ into }, 'token']);
  });

  it('shows the merged case\'s messages and files on the target, and a later reply to its thread lands on the target', async () => {
    const w = await givenEmailWorkflow(t);
    const file = Buffer.from(randomBytes(150).toString('hex'));
    const first = withFile('Broken box', file);
    const merged = await mailedCase(w, first);
    await sendAccepted(t, w.address, message('Re: Broken box', 'more detail\n', { 'In-Reply-To': first.id }).text);
    const into = await mailedCase(w, message('Box broken', 'mine too\n'));
    assert.equal((await merge(t, w.org.adminToken, merged, into)).status, 200);

    const events = await timeline(t, w, into);
    const afterMerge = events.slice(events.findIndex((e) => e.type === 'merged_from') + 1);
    assert.deepEqual(afterMerge.map((e) => [e.type, e.merged_from, e.subject]), [['email_received', merged, 'Broken box'], ['email_received', merged, 'Re: Broken box']]);
    assert.ok(afterMerge.every((e) => typeof e.received_at === 'string'));
    const attachmentId = afterMerge[0].attachments[0].id;
    const download = await t.request('GET', `/api/admin/v1/cases/${into}/attachments/${attachmentId}`, { token: w.org.adminToken });
    assert.equal(download.status, 200, download.text);
    assert.equal(download.text, file.toString(), 'the target serves the merged case\'s file');

    await sendAccepted(t, w.address, message('Re: Broken box', 'any news?\n', { 'In-Reply-To': first.id, References: first.id }).text);
    assert.deepEqual(await caseIdsOf(w.workflowId), [merged, into], 'no new case');
    const [reply] = (await timeline(t, w, into)).filter((e) => e.type === 'email_received' && e.merged_from === undefined && e.text === 'any news?\n');
    assert.ok(reply, 'the reply is on the target');
    assert.equal((await timeline(t, w, merged)).filter((e) => e.type === 'email_received').length, 1, 'and not on the merged case');
    const stillMerged = await adminCase(t, w, merged);
    assert.deepEqual([stillMerged.status, stillMerged.outcome], ['Closed', 'Merged'], 'which does not reopen');
  });

  it('shows the merged case\'s comments on the target, in one order with the target\'s own; the merged case keeps showing its own', async () => {
    const w = await givenEmailWorkflow(t);
    const merged = await mailedCase(w, message('One', '1\n'));
    const into = await mailedCase(w, message('Two', '2\n'));
    const note = (caseId: number, body: string) => t.request('POST', `/api/admin/v1/cases/${caseId}/comments`, { token: w.org.adminToken, body: { body, visibility: 'internal' } });
    const bodies = async (caseId: number, query = '') => (await t.request('GET', `/api/admin/v1/cases/${caseId}/comments${query}`, { token: w.org.adminToken })).body;
    assert.equal((await note(merged, 'on the merged case')).status, 201);
    assert.equal((await note(into, 'on the target')).status, 201);
    assert.equal((await merge(t, w.org.adminToken, merged, into)).status, 200);
    assert.equal((await note(into, 'after the merge')).status, 201);
    const added = (await timeline(t, w, into)).filter((e) => e.type === 'comment_added');
    assert.deepEqual(added.map((e) => e.by.type), ['admin_token', 'admin_token'], 'an admin token\'s notes are the admin token\'s, as its PATCH is');
    assert.deepEqual((await bodies(into)).comments.map((c: { body: string }) => c.body), ['on the merged case', 'on the target', 'after the merge']);
    const first = await bodies(into, '?limit=1');
    const rest = await bodies(into, `?limit=2&after=${first.next_cursor}`);
    assert.deepEqual([...first.comments, ...rest.comments].map((c: { body: string }) => c.body), ['on the merged case', 'on the target', 'after the merge'], 'in exact pages');
    assert.deepEqual((await bodies(merged)).comments.map((c: { body: string }) => c.body), ['on the merged case']);
  });

  it('a reply follows a chain of merges: A into B, then B into C, and a reply to A\'s thread lands on C, which shows A\'s messages', async () => {
    const w = await givenEmailWorkflow(t);
    const firstOfA = message('A', 'a\n');
    const a = await mailedCase(w, firstOfA);
    const b = await mailedCase(w, message('B', 'b\n'));
    const c = await mailedCase(w, message('C', 'c\n'));
    assert.equal((await merge(t, w.org.adminToken, a, b)).status, 200);
    assert.equal((await merge(t, w.org.adminToken, b, c)).status, 200);
    const copied = (await timeline(t, w, c)).filter((e) => e.type === 'email_received').map((e) => [e.subject, e.merged_from]);
    assert.deepEqual(copied, [['B', b], ['A', a]], 'a copy keeps the case its message came to');

    await sendAccepted(t, w.address, message('Re: A', 'reply to A\n', { 'In-Reply-To': firstOfA.id }).text);
    assert.ok((await timeline(t, w, c)).some((e) => e.type === 'email_received' && e.text === 'reply to A\n'));
    assert.ok(!(await timeline(t, w, b)).some((e) => e.type === 'email_received' && e.text === 'reply to A\n'));
  });

  it('a reply meant for a case merged after its thread was looked up goes on to the target', async () => {
    const w = await givenEmailWorkflow(t);
    const merged = await mailedCase(w, message('Late', 'late\n'));
    const into = await mailedCase(w, message('Target', 'target\n'));
    assert.equal((await merge(t, w.org.adminToken, merged, into)).status, 200);
    // What the SMTP path does with the case it looked up before the merge committed.
    const email = { from: { address: 'ada@example.com', name: '' }, to: [], cc: [], subject: 'Re: Late', text: 'raced\n', html: null, message_id: null, in_reply_to: null, references: [], date: null, attachments: [] };
    const stored = await t.app.get(CaseEmailsService).addReply(w.org.id, w.workflowId, merged, email, { attachments: [], messageId: null }, true);
    assert.equal(stored.id, into);
    assert.ok((await timeline(t, w, into)).some((e) => e.type === 'email_received' && e.text === 'raced\n'));
    assert.deepEqual([(await adminCase(t, w, merged)).status, (await adminCase(t, w, merged)).outcome], ['Closed', 'Merged']);
  });

  it('a person who merges is named on both timelines as the user', async () => {
    const origin = new URL(t.env.PUBLIC_BASE_URL!).origin;
    const org = await givenOwnedOrganization(t, sink, origin);
    const agent = await givenMember(t, sink, org, 'agent', origin);
    const w = await givenEmailWorkflow(t, emailDefinition(), { id: org.id, adminToken: org.adminToken });
    const merged = await mailedCase(w, message('One', '1\n'));
    const into = await mailedCase(w, message('Two', '2\n'));
    const res = await fromDashboard(t, agent, 'POST', `/api/admin/v1/cases/${merged}/merge`, { into });
    assert.equal(res.status, 200, res.text);
    const mergedInto = (await timeline(t, w, merged)).find((e) => e.type === 'merged_into');
    const mergedFrom = (await timeline(t, w, into)).find((e) => e.type === 'merged_from');
    assert.deepEqual(mergedInto.by, { type: 'user', id: agent.userId, name: agent.email });
    assert.deepEqual(mergedFrom.by, { type: 'user', id: agent.userId, name: agent.email });
  });

  describe('refusals: nothing changes', () => {
    it('merging a case into itself is 422', async () => {
      const f = await givenCasesWorkflow(t);
      const id = await createdCaseId(f);
      const res = await merge(t, f.org.adminToken, id, id);
      assert.equal(res.status, 422, res.text);
      assert.deepEqual(res.body.validation_errors.map((p: { path: string }) => p.path), ['/into']);
      assert.equal((await storedCase(id)).status, 'Open');
    });

    it('merging into a case of another workflow is 422', async () => {
      const f = await givenCasesWorkflow(t);
      const other = await anotherWorkflow(f);
      const id = await createdCaseId(f);
      const into = await createdCaseId(other);
      const res = await merge(t, f.org.adminToken, id, into);
      assert.equal(res.status, 422, res.text);
      assert.match(res.body.error, /same workflow/);
      assert.equal((await storedCase(id)).status, 'Open');
    });

    it('merging a test case and a live case is 422', async () => {
      const f = await givenCasesWorkflow(t);
      const live = await createdCaseId(f);
      const test = await createdCaseId(f, { mode: 'test' });
      assert.equal((await merge(t, f.org.adminToken, test, live)).status, 422);
      assert.equal((await storedCase(test)).status, 'Open');
    });

    it('a case already merged is not merged again (422), and nothing is merged into it, even once reopened (422)', async () => {
      const f = await givenCasesWorkflow(t);
      const [a, b, c] = [await createdCaseId(f), await createdCaseId(f), await createdCaseId(f)];
      assert.equal((await merge(t, f.org.adminToken, a, b)).status, 200);
      const again = await merge(t, f.org.adminToken, a, c);
      assert.equal(again.status, 422, again.text);
      assert.match(again.body.error, new RegExp(`already merged into case ${b}`));
      const into = await merge(t, f.org.adminToken, c, a);
      assert.equal(into.status, 422, into.text);
      assert.deepEqual(into.body.validation_errors.map((p: { path: string }) => p.path), ['/into']);
      assert.equal((await patchCase(f, a, { status: 'Open' })).status, 200);
      assert.equal((await merge(t, f.org.adminToken, c, a)).status, 422, 'a reopened merged case is still merged');
      assert.equal((await storedCase(c)).status, 'Open');
      assert.equal((await caseTimeline(t, f.org, b)).filter((e) => e.type === 'merged_from').length, 1);
    });

    it('a case or target of another organization is 404, a malformed body 422', async () => {
      const f = await givenCasesWorkflow(t);
      const stranger = await givenCasesWorkflow(t);
      const mine = await createdCaseId(f);
      const theirs = await createdCaseId(stranger);
      assert.equal((await merge(t, f.org.adminToken, mine, theirs)).status, 404);
      assert.equal((await merge(t, f.org.adminToken, theirs, mine)).status, 404);
      for (const body of [{}, { into: 'x' }, { into: 0 }, { into: mine, extra: 1 }]) {
        const res = await t.request('POST', `/api/admin/v1/cases/${mine}/merge`, { token: f.org.adminToken, body });
        assert.equal(res.status, 422, `${JSON.stringify(body)}: ${res.text}`);
      }
      assert.deepEqual([(await storedCase(mine)).status, (await storedCase(theirs)).status], ['Open', 'Open']);
      const org = await createOrganization(t);
      assert.equal((await merge(t, org.adminToken, mine, theirs)).status, 404);
    });
  });

  it('of two merges crossing each other (A into B, B into A) exactly one succeeds, every time', async () => {
    const f = await givenCasesWorkflow(t);
    for (let round = 0; round < 5; round++) {
      const a = await createdCaseId(f);
      const b = await createdCaseId(f);
      const answers = await Promise.all([merge(t, f.org.adminToken, a, b), merge(t, f.org.adminToken, b, a)]);
      assert.deepEqual(answers.map((r) => r.status).sort(), [200, 422], answers.map((r) => r.text).join(' / '));
      const merged = [await storedCase(a), await storedCase(b)].filter((c) => c.outcome === 'Merged');
      assert.equal(merged.length, 1);
      const pointers = await db().query('SELECT merged_case_id FROM case_merges WHERE merged_case_id = ANY($1::bigint[])', [[a, b]]);
      assert.equal(pointers.rowCount, 1);
    }
  });
});

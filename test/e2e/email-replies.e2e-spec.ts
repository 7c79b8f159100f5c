import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { serviceMessageId } from '../../src/shared/mail/service-message-id.js';
import { adminCase, caseIdsOf, type EmailWorkflow, emailDefinition, givenEmailWorkflow, mail, type MailApp, send, sendAccepted, startMailApp, timeline } from '../support/email-helpers.js';
import { closeDb, db } from '../support/test-app.js';

const MAX_REPLIES = 2;
const MAX_REPLY_BYTES = 8192;

const runsOf = async (caseId: number) => Number((await db().query('SELECT count(*) AS n FROM workflow_runs WHERE case_id = $1', [caseId])).rows[0].n);
const outbox = async (caseId: number) =>
  (await db().query<{ type: string }>('SELECT type FROM outbox_events WHERE case_id = $1 ORDER BY id', [caseId])).rows.map((r) => r.type);

describe('email replies: mail a machine sent, and the caps per case', () => {
  let t: MailApp;
  before(async () => {
    t = await startMailApp({ EMAIL_MAX_REPLIES_PER_CASE: String(MAX_REPLIES), EMAIL_MAX_REPLY_BYTES_PER_CASE: String(MAX_REPLY_BYTES) });
  });
  after(async () => { await t.close(); await closeDb(); });

  /** A workflow whose Open status has a run, subscribed to its events, and one Closed case that came by mail as `<first@...>`. */
  async function closedCase(): Promise<{ w: EmailWorkflow; caseId: number; first: string }> {
    const w = await givenEmailWorkflow(t, emailDefinition({ automations: { Open: [{ set_attributes: { triaged: true } }] } }));
    const sub = await t.request('POST', '/api/admin/v1/subscriptions', {
      token: w.org.adminToken,
      body: { url: 'http://127.0.0.1:9/hooks', events: ['case.created', 'case.closed', 'case.reopened', 'case.email_received'] },
    });
    assert.equal(sub.status, 201, sub.text);
    const first = `<first.${w.workflowId}@example.com>`;
    await sendAccepted(t, w.address, mail({ From: 'ada@example.com', Subject: 'Broken box', 'Message-ID': first }, 'first\n'));
    const [caseId] = await caseIdsOf(w.workflowId);
    const closed = await t.request('PATCH', `/api/external/v1/workflows/${w.workflowId}/cases/${caseId}`, { token: w.apiToken, body: { status: 'Closed' } });
    assert.equal(closed.status, 200, closed.text);
    return { w, caseId: caseId!, first };
  }

  for (const [what, headers] of [
    ['Auto-Submitted: auto-replied', { 'Auto-Submitted': 'auto-replied' }],
    ['Auto-Submitted: auto-generated; owner-email="x@example.com"', { 'Auto-Submitted': 'auto-generated; owner-email="x@example.com"' }],
    ['Precedence: bulk', { Precedence: 'bulk' }],
    ['Precedence: junk', { Precedence: 'JUNK' }],
    ['Precedence: auto_reply', { Precedence: 'auto_reply' }],
    ['a reference to one of the service\'s own messages (a digest)', { References: serviceMessageId('reports@localhost') }],
  ] as const) {
    it(`a reply marked ${what} is kept on the timeline as automatic, and neither reopens the Closed case nor starts a run`, async () => {
      const { w, caseId, first } = await closedCase();
      const runsBefore = await runsOf(caseId);
      const references = 'References' in headers ? `${headers.References} ${first}` : first;
      await sendAccepted(t, w.address, mail({ ...headers, Subject: 'Out of office', 'In-Reply-To': first, References: references }, 'I am away\n'));
      assert.equal((await adminCase(t, w, caseId)).status, 'Closed');
      assert.equal(await runsOf(caseId), runsBefore);
      const events = await timeline(t, w, caseId);
      const received = events.filter((e) => e.type === 'email_received');
      assert.deepEqual(received.map((e) => [e.text, e.automatic]), [['I am away\n', true]]);
      assert.equal(events.at(-1).type, 'email_received', 'no status change after it');
      assert.deepEqual(await outbox(caseId), ['case.created', 'case.closed', 'case.email_received']);
    });
  }

  for (const [what, headers] of [['Auto-Submitted: no', { 'Auto-Submitted': 'no' }], ['Precedence: list (a person writing through a mailing list)', { Precedence: 'list' }]] as const) {
    it(`a reply marked ${what} is a person's: it reopens the case, whose run starts`, async () => {
      const { w, caseId, first } = await closedCase();
      const runsBefore = await runsOf(caseId);
      await sendAccepted(t, w.address, mail({ ...headers, Subject: 'Re: Broken box', 'In-Reply-To': first }, 'still broken\n'));
      assert.equal((await adminCase(t, w, caseId)).status, 'Open');
      assert.equal(await runsOf(caseId), runsBefore + 1);
      const [received] = (await timeline(t, w, caseId)).filter((e) => e.type === 'email_received');
      assert.equal(received.automatic, undefined);
    });
  }

  it('a new message a machine sent opens its case without Open\'s run', async () => {
    const w = await givenEmailWorkflow(t, emailDefinition({ automations: { Open: [{ set_attributes: { triaged: true } }] } }));
    await sendAccepted(t, w.address, mail({ 'Auto-Submitted': 'auto-generated', Subject: 'Disk almost full' }, 'alert\n'));
    await sendAccepted(t, w.address, mail({ Subject: 'Re: Case report', 'In-Reply-To': serviceMessageId('reports@localhost') }, 'thanks for the digest\n'));
    await sendAccepted(t, w.address, mail({ Subject: 'A person' }, 'hello\n'));
    const ids = await caseIdsOf(w.workflowId);
    assert.deepEqual(await Promise.all(ids.map(runsOf)), [0, 0, 1]);
    assert.deepEqual(await Promise.all(ids.map(async (id) => (await adminCase(t, w, id)).status)), ['Open', 'Open', 'Open']);
  });

  it(`past EMAIL_MAX_REPLIES_PER_CASE replies a reply is refused for good (552 5.2.2): nothing stored, the Closed case stays Closed`, async () => {
    const { w, caseId, first } = await closedCase();
    for (let i = 0; i < MAX_REPLIES; i++) {
      await sendAccepted(t, w.address, mail({ 'Auto-Submitted': 'auto-replied', Subject: `away ${i}`, 'In-Reply-To': first }, 'away\n'));
    }
    const result = await send(t, { to: [w.address], message: mail({ Subject: 'Re: Broken box', 'In-Reply-To': first }, 'one more\n') });
    assert.deepEqual(result.data, { code: 552, text: `5.2.2 Message refused: the case it answers holds ${MAX_REPLIES} replies, as many as it takes` });
    assert.equal((await adminCase(t, w, caseId)).status, 'Closed');
    assert.equal((await timeline(t, w, caseId)).filter((e) => e.type === 'email_received').length, MAX_REPLIES);
    assert.deepEqual(await caseIdsOf(w.workflowId), [caseId], 'and no new case either');
  });

  it(`past EMAIL_MAX_REPLY_BYTES_PER_CASE (the replies' fields and the case's files) a reply is refused (552 5.2.2) with nothing stored`, async () => {
    const { w, caseId, first } = await closedCase();
    const withFile = (subject: string, bytes: number) => mail({ Subject: subject, 'In-Reply-To': first, 'Content-Type': 'multipart/mixed; boundary=b' }, [
      '--b', 'Content-Type: text/plain', '', 'see attached', '--b', 'Content-Type: application/octet-stream', 'Content-Transfer-Encoding: base64',
      'Content-Disposition: attachment; filename=data.bin', '', randomBytes(bytes).toString('base64').replace(/.{76}/g, '$&\n'), '--b--', '',
    ].join('\n'));
    await sendAccepted(t, w.address, withFile('Re: one', 5_000));
    const files = async () => Number((await db().query('SELECT count(*) AS n FROM case_attachments WHERE case_id = $1', [caseId])).rows[0].n);
    const result = await send(t, { to: [w.address], message: withFile('Re: two', 3_000) });
    assert.deepEqual(result.data, { code: 552, text: `5.2.2 Message refused: the case it answers holds ${MAX_REPLY_BYTES} bytes of replies and files, as many as it takes` });
    assert.equal(await files(), 1);
    assert.equal((await timeline(t, w, caseId)).filter((e) => e.type === 'email_received').length, 1);
  });
});

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createOrganization, createWorkflow, operatorToken } from '../support/scenario.js';
import { closeDb, db } from '../support/test-app.js';
import { adminCase, caseIdsOf, type EmailWorkflow, emailDefinition, givenEmailWorkflow, mail, type MailApp, onlyCase, send, sendAccepted, startMailApp, timeline } from '../support/email-helpers.js';

const MAX_MESSAGE_BYTES = 256 * 1024;

/** The bytes of a download over real HTTP (inject's text would re-decode them). */
async function fetchBytes(t: MailApp, path: string, token: string): Promise<{ bytes: Buffer; headers: Headers }> {
  const res = await t.app.getHttpAdapter().getInstance().inject({ method: 'GET', url: path, headers: { authorization: `Bearer ${token}` } });
  assert.equal(res.statusCode, 200, res.body);
  return { bytes: res.rawPayload, headers: new Headers(Object.entries(res.headers).map(([k, v]) => [k, String(v)])) };
}

describe('email intake', () => {
  let t: MailApp;
  before(async () => { t = await startMailApp({ SMTP_MAX_MESSAGE_BYTES: String(MAX_MESSAGE_BYTES), INBOUND_EMAIL_DOMAIN: 'inbound.example' }); });
  after(async () => { await t.close(); await closeDb(); });

  describe('the inbound address: generate, view, rotate', () => {
    it('generates one secret address per email workflow, the same when asked again, shown by GET', async () => {
      const w = await givenEmailWorkflow(t);
      assert.match(w.address, /^case-[a-z2-7]{52}@inbound\.example$/);
      const again = await t.request('POST', `/api/admin/v1/workflows/${w.workflowId}/email_address`, { token: w.org.adminToken });
      assert.equal(again.status, 201);
      assert.deepEqual(again.body, { email_address: { address: w.address } });
      const shown = await t.request('GET', `/api/admin/v1/workflows/${w.workflowId}/email_address`, { token: w.org.adminToken });
      assert.deepEqual([shown.status, shown.body], [200, { email_address: { address: w.address } }]);
      const { rows } = await db().query('SELECT secret_hash, secret_ciphertext FROM workflow_email_addresses WHERE workflow_id = $1', [w.workflowId]);
      assert.ok(!JSON.stringify(rows).includes(w.address.split('@')[0]!), 'the secret is not stored in plain text');
    });

    it('422 unless the workflow is published with case source email; 404 before one exists or outside the organization', async () => {
      const org = await createOrganization(t);
      const direct = await createWorkflow(t, org, emailDefinition({ case_source: 'direct' }));
      const draft = await createWorkflow(t, org, emailDefinition(), false);
      for (const id of [direct, draft]) {
        const res = await t.request('POST', `/api/admin/v1/workflows/${id}/email_address`, { token: org.adminToken });
        assert.equal(res.status, 422, res.text);
        const get = await t.request('GET', `/api/admin/v1/workflows/${id}/email_address`, { token: org.adminToken });
        assert.equal(get.status, 404, get.text);
      }
      const stranger = await givenEmailWorkflow(t);
      for (const method of ['POST', 'GET']) {
        const res = await t.request(method, `/api/admin/v1/workflows/${stranger.workflowId}/email_address`, { token: org.adminToken });
        assert.equal(res.status, 404, res.text);
      }
    });

    it('the operator rotates it: the old address is refused at RCPT TO at once, the new one takes mail', async () => {
      const w = await givenEmailWorkflow(t);
      await sendAccepted(t, w.address, mail({ From: 'ada@example.com', Subject: 'before' }, 'hello\n'));
      const rotated = await t.request('POST', `/api/operator/v1/workflows/${w.workflowId}/email_address/rotate`, { token: operatorToken() });
      assert.equal(rotated.status, 200, rotated.text);
      const address: string = rotated.body.email_address.address;
      assert.notEqual(address, w.address);
      const old = await send(t, { to: [w.address], message: mail({ Subject: 'after' }, 'hello\n') });
      assert.deepEqual(old.rcpt, [{ code: 550, text: '5.1.1 Recipient address rejected: no such mailbox' }]);
      await sendAccepted(t, address, mail({ From: 'ada@example.com', Subject: 'new address' }, 'hello\n'));
      assert.equal((await caseIdsOf(w.workflowId)).length, 2);
      const shown = await t.request('GET', `/api/admin/v1/workflows/${w.workflowId}/email_address`, { token: w.org.adminToken });
      assert.equal(shown.body.email_address.address, address);
      const missing = await t.request('POST', `/api/operator/v1/workflows/${await createWorkflow(t, w.org, emailDefinition())}/email_address/rotate`, { token: operatorToken() });
      assert.equal(missing.status, 404, missing.text);
    });
  });

  describe('recipients and sizes at SMTP time', () => {
    it('550 5.1.1 at RCPT TO for an unknown address, another domain, or an unpublished workflow; no case', async () => {
      const w = await givenEmailWorkflow(t);
      const [local] = w.address.split('@');
      const unpublished = await givenEmailWorkflow(t);
      const res = await t.request('POST', `/api/admin/v1/workflows/${unpublished.workflowId}/unpublish`, { token: unpublished.org.adminToken });
      assert.equal(res.status, 200);
      for (const to of [`case-${'a'.repeat(52)}@inbound.example`, `${local}@other.example`, unpublished.address]) {
        const result = await send(t, { to: [to], message: mail({ Subject: 'x' }, 'x\n') });
        assert.deepEqual(result.rcpt, [{ code: 550, text: '5.1.1 Recipient address rejected: no such mailbox' }], to);
        assert.equal(result.data, null);
      }
      assert.deepEqual(await caseIdsOf(unpublished.workflowId), []);
      await sendAccepted(t, w.address.toUpperCase(), mail({ Subject: 'case of the address does not matter' }, 'x\n'));
    });

    it('552 5.3.4 for a message over SMTP_MAX_MESSAGE_BYTES, declared (MAIL FROM SIZE) or not; no case', async () => {
      const w = await givenEmailWorkflow(t);
      const big = mail({ Subject: 'big' }, `${'x'.repeat(76)}\n`.repeat(Math.ceil(MAX_MESSAGE_BYTES / 78) + 10));
      const declared = await send(t, { to: [w.address], message: 'Subject: x\r\n\r\nx\r\n', declaredSize: MAX_MESSAGE_BYTES + 1 });
      assert.deepEqual(declared.mailFrom, { code: 552, text: `5.3.4 Message size exceeds the fixed maximum of ${MAX_MESSAGE_BYTES} bytes` });
      const streamed = await send(t, { to: [w.address], message: big });
      assert.deepEqual(streamed.data, { code: 552, text: `5.3.4 Message size exceeds the fixed maximum of ${MAX_MESSAGE_BYTES} bytes` });
      assert.deepEqual(await caseIdsOf(w.workflowId), []);
      await sendAccepted(t, w.address, mail({ Subject: 'small' }, 'the connection and the workflow still work\n'));
    });
  });

  describe('one case per message and workflow', () => {
    it('a plain text message: an Open live case with source Email, its subject, and the email attribute', async () => {
      const w = await givenEmailWorkflow(t);
      await sendAccepted(t, w.address, mail({
        From: '"Ada Lovelace" <ada@example.com>',
        To: `Support <${w.address}>, grace@example.com`,
        Cc: 'Team: linus@example.com, ken@example.com;',
        Subject: '  Order 1042 arrived damaged  ',
        'Message-ID': '<m1.1042@example.com>',
        Date: 'Tue, 24 Nov 2026 10:11:12 +0100',
        'Content-Type': 'text/plain; charset=utf-8',
      }, 'Hello,\n\nthe box was crushed.\n'));
      const c = await onlyCase(t, w);
      assert.equal(c.subject, 'Order 1042 arrived damaged');
      assert.deepEqual([c.status, c.mode, c.source_type, c.outcome], ['Open', 'live', 'Email', null]);
      assert.deepEqual(c.attributes, {
        email: {
          from: { address: 'ada@example.com', name: 'Ada Lovelace' },
          to: [{ address: w.address, name: 'Support' }, { address: 'grace@example.com', name: '' }],
          cc: [{ address: 'linus@example.com', name: '' }, { address: 'ken@example.com', name: '' }],
          subject: 'Order 1042 arrived damaged',
          text: 'Hello,\n\nthe box was crushed.\n',
          html: null,
          message_id: '<m1.1042@example.com>',
          in_reply_to: null,
          references: [],
          date: '2026-11-24T09:11:12.000Z',
          attachments: [],
        },
      });
      const [created] = await timeline(t, w, c.id);
      assert.deepEqual([created.type, created.by, created.source], ['created', { type: 'email' }, 'Email']);
      const listed = await t.request('GET', `/api/admin/v1/cases?source=Email&workflow_id=${w.workflowId}`, { token: w.org.adminToken });
      assert.deepEqual(listed.body.cases.map((x: { id: number }) => x.id), [c.id]);
      const apiRead = await t.request('GET', `/api/external/v1/workflows/${w.workflowId}/cases/${c.id}`, { token: w.apiToken });
      assert.equal(apiRead.status, 200, apiRead.text);
    });

    it('an empty subject gives `<workflow name> via Email - <time> UTC`', async () => {
      const w = await givenEmailWorkflow(t);
      await sendAccepted(t, w.address, mail({ Subject: '   ' }, 'no subject\n'));
      assert.match((await onlyCase(t, w)).subject, /^Support inbox via Email - \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
    });

    it('one message to two workflows (and twice to one) is one case on each', async () => {
      const a = await givenEmailWorkflow(t);
      const b = await givenEmailWorkflow(t, emailDefinition({ name: 'Billing' }), a.org);
      await sendAccepted(t, [a.address, b.address, a.address], mail({ Subject: 'both', 'Message-ID': '<both@example.com>' }, 'x\n'));
      assert.equal((await caseIdsOf(a.workflowId)).length, 1);
      assert.equal((await caseIdsOf(b.workflowId)).length, 1);
    });

    it('the same message delivered again (same Message-ID) is accepted and makes no second case', async () => {
      const w = await givenEmailWorkflow(t);
      const message = mail({ Subject: 'retry', 'Message-ID': '<retry@example.com>' }, 'x\n');
      await sendAccepted(t, w.address, message);
      await sendAccepted(t, w.address, message);
      assert.equal((await caseIdsOf(w.workflowId)).length, 1);
    });

    it('550 5.7.1 with the first validation error when the attributes fail the workflow\'s schema; no case', async () => {
      const sensitive = await givenEmailWorkflow(t, emailDefinition({ sensitive_data: true }));
      const result = await send(t, { to: [sensitive.address], message: mail({ Subject: 'card 4111' }, 'x\n') });
      assert.equal(result.data?.code, 550);
      assert.equal(result.data?.text, '5.7.1 Message refused: undeclared attribute "email": this workflow handles sensitive data and accepts declared attributes only (at /email)');
      assert.deepEqual(await caseIdsOf(sensitive.workflowId), []);
      const required = await givenEmailWorkflow(t, emailDefinition({ attributes: { customer_id: { type: 'string', required: true } } }));
      const missing = await send(t, { to: [required.address], message: mail({ Subject: 'x' }, 'x\n') });
      assert.deepEqual(missing.data, { code: 550, text: '5.7.1 Message refused: missing required attribute "customer_id"' });
      const declared = await givenEmailWorkflow(t, emailDefinition({ sensitive_data: true, attributes: { email: { type: 'object', required: true } } }));
      await sendAccepted(t, declared.address, mail({ Subject: 'declared' }, 'x\n'));
      assert.equal((await onlyCase(t, declared)).subject, 'declared');
    });

    it('a message refused for one of its workflows creates nothing on the others', async () => {
      const open = await givenEmailWorkflow(t);
      const sensitive = await givenEmailWorkflow(t, emailDefinition({ sensitive_data: true }), open.org);
      const result = await send(t, { to: [open.address, sensitive.address], message: mail({ Subject: 'x' }, 'x\n') });
      assert.equal(result.data?.code, 550);
      assert.deepEqual([...(await caseIdsOf(open.workflowId)), ...(await caseIdsOf(sensitive.workflowId))], []);
    });
  });

  describe('bodies and attachments, decoded exactly', () => {
    const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 37) % 256))]);
    const PDF = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 131 + 7) % 256));
    const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
    const base64Lines = (bytes: Buffer) => bytes.toString('base64').replace(/.{76}/g, '$&\r\n');

    async function download(w: EmailWorkflow, caseId: number, attachmentId: string) {
      const external = await t.request('GET', `/api/external/v1/workflows/${w.workflowId}/cases/${caseId}/attachments/${attachmentId}`, { token: w.apiToken });
      const admin = await t.request('GET', `/api/admin/v1/cases/${caseId}/attachments/${attachmentId}`, { token: w.org.adminToken });
      for (const res of [external, admin]) {
        assert.equal(res.status, 200, res.text);
        assert.equal(res.headers['x-content-type-options'], 'nosniff');
        assert.match(String(res.headers['content-disposition']), /^attachment(;|$)/);
      }
      return { external, admin };
    }

    it('HTML with an inline image: html as sent (cid: link kept), the text alternative, the image as an attachment', async () => {
      const w = await givenEmailWorkflow(t);
      const html = '<html><body><p>Caf\u00e9 <b>menu</b>:</p><img src="cid:logo@example"></body></html>';
      await sendAccepted(t, w.address, mail({ Subject: 'menu', 'Content-Type': 'multipart/related; boundary="rel"' }, [
        '--rel', 'Content-Type: multipart/alternative; boundary="alt"', '',
        '--alt', 'Content-Type: text/plain; charset=utf-8', 'Content-Transfer-Encoding: quoted-printable', '', 'Caf=C3=A9 menu', '',
        '--alt', 'Content-Type: text/html; charset=utf-8', 'Content-Transfer-Encoding: base64', '', base64Lines(Buffer.from(html)), '--alt--',
        '--rel', 'Content-Type: image/png', 'Content-Transfer-Encoding: base64', 'Content-ID: <logo@example>', 'Content-Disposition: inline; filename="logo.png"', '', base64Lines(PNG),
        '--rel--', '',
      ].join('\n')));
      const c = await onlyCase(t, w);
      const email = c.attributes.email;
      assert.equal(email.html, html);
      assert.equal(email.text, 'Café menu\n');
      assert.equal(email.attachments.length, 1);
      const [image] = email.attachments;
      assert.deepEqual({ ...image, id: undefined }, { id: undefined, filename: 'logo.png', content_type: 'image/png', size: PNG.length, sha256: sha256(PNG) });
      await download(w, c.id, image.id);
      const served = await fetchBytes(t, `/api/external/v1/workflows/${w.workflowId}/cases/${c.id}/attachments/${image.id}`, w.apiToken);
      assert.ok(served.bytes.equals(PNG));
      assert.equal(served.headers.get('content-type'), 'image/png');
      assert.equal(served.headers.get('content-disposition'), `attachment; filename="logo.png"; filename*=UTF-8''logo.png`);
    });

    it('a multipart with attachments: each kept byte for byte, its SHA-256, served with its type as a download', async () => {
      const w = await givenEmailWorkflow(t);
      const csv = 'id;name\r\n1;Zoë\r\n';
      await sendAccepted(t, w.address, mail({ Subject: 'files', 'Content-Type': 'multipart/mixed; boundary=mix' }, [
        '--mix', 'Content-Type: text/plain; charset=us-ascii', '', 'Two files attached.', '',
        '--mix', 'Content-Type: application/pdf; name="report.pdf"', 'Content-Transfer-Encoding: base64', 'Content-Disposition: attachment; filename="report.pdf"', '', base64Lines(PDF),
        '--mix', 'Content-Type: text/csv; charset=utf-8', 'Content-Transfer-Encoding: quoted-printable', `Content-Disposition: attachment; filename*=utf-8''R%C3%A9sum%C3%A9%20%22Q1%22.csv`, '', 'id;name', '1;Zo=C3=AB', '',
        '--mix--', '',
      ].join('\n')));
      const c = await onlyCase(t, w);
      const [pdf, sheet] = c.attributes.email.attachments;
      assert.equal(c.attributes.email.text, 'Two files attached.\n');
      assert.deepEqual([pdf.filename, pdf.content_type, pdf.size, pdf.sha256], ['report.pdf', 'application/pdf', PDF.length, sha256(PDF)]);
      assert.deepEqual([sheet.filename, sheet.content_type, sheet.size, sheet.sha256], ['Résumé "Q1".csv', 'text/csv', Buffer.byteLength(csv), sha256(Buffer.from(csv))]);
      const pdfRes = await fetchBytes(t, `/api/external/v1/workflows/${w.workflowId}/cases/${c.id}/attachments/${pdf.id}`, w.apiToken);
      assert.equal(sha256(pdfRes.bytes), sha256(PDF));
      assert.equal(pdfRes.headers.get('content-type'), 'application/pdf');
      const csvRes = await fetchBytes(t, `/api/admin/v1/cases/${c.id}/attachments/${sheet.id}`, w.org.adminToken);
      assert.equal(csvRes.bytes.toString('utf8'), csv);
      assert.equal(csvRes.headers.get('content-disposition'), `attachment; filename="R_sum_ _Q1_.csv"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%22Q1%22.csv`);
      assert.equal(csvRes.headers.get('x-content-type-options'), 'nosniff');
      await download(w, c.id, sheet.id);
      const other = await givenEmailWorkflow(t);
      const sibling = await givenEmailWorkflow(t, emailDefinition({ name: 'Sibling' }), w.org);
      for (const [url, token] of [
        [`/api/admin/v1/cases/${c.id}/attachments/${pdf.id}`, other.org.adminToken],
        [`/api/external/v1/workflows/${other.workflowId}/cases/${c.id}/attachments/${pdf.id}`, other.apiToken],
        [`/api/external/v1/workflows/${sibling.workflowId}/cases/${c.id}/attachments/${pdf.id}`, w.apiToken],
        [`/api/admin/v1/cases/${c.id}/attachments/not-a-uuid`, w.org.adminToken],
        [`/api/admin/v1/cases/${c.id}/attachments/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`, w.org.adminToken],
      ] as const) {
        const res = await t.request('GET', url, { token });
        assert.equal(res.status, 404, `${url}: ${res.text}`);
        assert.ok(res.body.error);
      }
    });

    it('non-UTF-8 charsets and transfer encodings are decoded exactly to UTF-8', async () => {
      const w = await givenEmailWorkflow(t);
      const latin = Buffer.concat([
        Buffer.from('Subject: =?ISO-8859-1?Q?R=E9clamation_n=B01042?=\r\nContent-Type: text/plain; charset=ISO-8859-1\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n'),
        Buffer.from('Cr=E8me br=FBl=E9e, 12 =A3? Stra=DFe\r\nsoft line=\r\n break\r\n'),
      ]);
      await sendAccepted(t, w.address, latin);
      // 日本語のメール, in Shift_JIS, sent as 8-bit bytes; and in ISO-2022-JP with a base64 subject.
      const sjis = Buffer.from('93fa967b8cea82cc8381815b838b', 'hex');
      await sendAccepted(t, w.address, Buffer.concat([Buffer.from('Subject: sjis\r\nContent-Type: text/plain; charset=Shift_JIS\r\nContent-Transfer-Encoding: 8bit\r\n\r\n'), sjis, Buffer.from('\r\n')]));
      await sendAccepted(t, w.address, Buffer.from([
        'Subject: =?ISO-2022-JP?B?GyRCRnxLXDhsGyhC?=', 'Content-Type: text/plain; charset=utf-8', 'Content-Transfer-Encoding: base64', '',
        Buffer.from('Grüße aus Köln 🚀\n').toString('base64'), '',
      ].join('\r\n')));
      const cases = await Promise.all((await caseIdsOf(w.workflowId)).map((id) => adminCase(t, w, id)));
      assert.deepEqual(cases.map((c) => [c.subject, c.attributes.email.text]), [
        ['Réclamation n°1042', 'Crème brûlée, 12 £? Straße\nsoft line break\n'],
        ['sjis', '日本語のメール\n'],
        ['日本語', 'Grüße aus Köln 🚀\n'],
      ]);
    });
  });

  describe('replies', () => {
    async function subscribe(w: EmailWorkflow): Promise<void> {
      const res = await t.request('POST', '/api/admin/v1/subscriptions', {
        token: w.org.adminToken,
        body: { url: 'http://127.0.0.1:9/hooks', events: ['case.created', 'case.closed', 'case.reopened', 'case.email_received'] },
      });
      assert.equal(res.status, 201, res.text);
    }
    const outbox = async (caseId: number) =>
      (await db().query<{ type: string }>('SELECT type FROM outbox_events WHERE case_id = $1 ORDER BY id', [caseId])).rows.map((r) => r.type);
    const runStatuses = async (caseId: number) =>
      (await db().query<{ status: string }>('SELECT status FROM workflow_runs WHERE case_id = $1 ORDER BY id', [caseId])).rows.map((r) => r.status);

    it('a reply (In-Reply-To) is added to its case: email_received on the timeline and as an event; a Closed case reopens and its Open run starts', async () => {
      const w = await givenEmailWorkflow(t, emailDefinition({ automations: { Open: [{ set_attributes: { triaged: true } }] } }));
      await subscribe(w);
      await sendAccepted(t, w.address, mail({ From: 'ada@example.com', Subject: 'Broken box', 'Message-ID': '<first@example.com>' }, 'first\n'));
      const [caseId] = await caseIdsOf(w.workflowId);
      const closed = await t.request('PATCH', `/api/external/v1/workflows/${w.workflowId}/cases/${caseId}`, { token: w.apiToken, body: { status: 'Closed' } });
      assert.equal(closed.status, 200, closed.text);
      const png = Buffer.from('89504e470d0a1a0a0000', 'hex');
      await sendAccepted(t, w.address, mail({
        From: 'Ada <ada@example.com>', Subject: 'Re: Broken box', 'Message-ID': '<second@example.com>', 'In-Reply-To': '<first@example.com>',
        References: '<first@example.com>', 'Content-Type': 'multipart/mixed; boundary=b',
      }, ['--b', 'Content-Type: text/plain', '', 'a photo', '--b', 'Content-Type: image/png', 'Content-Transfer-Encoding: base64', 'Content-Disposition: attachment; filename=photo.png', '', png.toString('base64'), '--b--', ''].join('\n')));
      assert.deepEqual(await caseIdsOf(w.workflowId), [caseId], 'no second case');
      const c = await adminCase(t, w, caseId!);
      assert.deepEqual([c.status, c.outcome, c.subject], ['Open', null, 'Broken box']);
      const events = await timeline(t, w, caseId!);
      const received = events.find((e) => e.type === 'email_received');
      assert.ok(received, JSON.stringify(events));
      assert.deepEqual(received.by, { type: 'email' });
      assert.deepEqual({ ...received, id: undefined, at: undefined, by: undefined, type: undefined, attachments: undefined }, {
        id: undefined, at: undefined, by: undefined, type: undefined, attachments: undefined,
        from: { address: 'ada@example.com', name: 'Ada' }, to: [], cc: [], subject: 'Re: Broken box', text: 'a photo', html: null,
        message_id: '<second@example.com>', in_reply_to: '<first@example.com>', references: ['<first@example.com>'], date: null,
      });
      const [photo] = received.attachments;
      assert.deepEqual([photo.filename, photo.content_type, photo.size, photo.sha256], ['photo.png', 'image/png', png.length, createHash('sha256').update(png).digest('hex')]);
      assert.ok((await fetchBytes(t, `/api/admin/v1/cases/${caseId}/attachments/${photo.id}`, w.org.adminToken)).bytes.equals(png));
      const reopen = events.findLast((e) => e.type === 'status_changed');
      assert.deepEqual([reopen.from, reopen.to, reopen.by], ['Closed', 'Open', { type: 'email' }]);
      assert.ok(events.indexOf(received) < events.indexOf(reopen));
      assert.deepEqual(await outbox(caseId!), ['case.created', 'case.closed', 'case.email_received', 'case.reopened']);
      assert.deepEqual(await runStatuses(caseId!), ['Open', 'Open'], 'the reopening started Open\'s run again');
    });

    it('replies thread by References too, reply to reply; an Open case stays Open; another workflow\'s Message-ID starts a new case', async () => {
      const w = await givenEmailWorkflow(t);
      await subscribe(w);
      await sendAccepted(t, w.address, mail({ Subject: 'Thread', 'Message-ID': '<t1@example.com>' }, 'one\n'));
      await sendAccepted(t, w.address, mail({ Subject: 'Re: Thread', 'Message-ID': '<t2@example.com>', References: '<unknown@example.com> <t1@example.com>' }, 'two\n'));
      await sendAccepted(t, w.address, mail({ Subject: 'Re: Re: Thread', 'Message-ID': '<t3@example.com>', 'In-Reply-To': '<t2@example.com>' }, 'three\n'));
      const [caseId] = await caseIdsOf(w.workflowId);
      assert.deepEqual(await caseIdsOf(w.workflowId), [caseId]);
      const events = await timeline(t, w, caseId!);
      assert.deepEqual(events.filter((e) => e.type === 'email_received').map((e) => e.text), ['two\n', 'three\n']);
      assert.equal(events.filter((e) => e.type === 'status_changed').length, 0);
      assert.deepEqual(await outbox(caseId!), ['case.created', 'case.email_received', 'case.email_received']);
      const other = await givenEmailWorkflow(t, emailDefinition({ name: 'Other' }), w.org);
      await sendAccepted(t, other.address, mail({ Subject: 'Re: Thread', 'Message-ID': '<o1@example.com>', 'In-Reply-To': '<t1@example.com>' }, 'elsewhere\n'));
      assert.equal((await caseIdsOf(other.workflowId)).length, 1);
      assert.deepEqual(await caseIdsOf(w.workflowId), [caseId]);
    });
  });
});

import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { after, before, describe, it } from 'node:test';
import { caseIdsOf, type EmailWorkflow, givenEmailWorkflow, mail, type MailApp, onlyCase, send, sendAccepted, startMailApp, timeline } from '../support/email-helpers.js';
import { closeDb, db } from '../support/test-app.js';

/** What docs/security.md promises for a hostile message: a permanent refusal, quickly, with nothing stored. */
const WITHIN_MS = 15_000;

const HEAD = 'From: mallory@example.com\r\nSubject: hostile\r\nMIME-Version: 1.0\r\n';

function manyParts(n: number): string {
  return `${HEAD}Content-Type: multipart/mixed; boundary=p\r\n\r\n${'--p\r\nContent-Type: application/octet-stream\r\n\r\nx\r\n'.repeat(n)}--p--\r\n`;
}

function nested(depth: number): string {
  let open = '';
  let close = '';
  for (let i = 0; i < depth; i++) {
    open += `Content-Type: multipart/mixed; boundary=level${i}\r\n\r\n--level${i}\r\n`;
    close = `\r\n--level${i}--\r\n${close}`;
  }
  return `${HEAD}${open}Content-Type: text/plain\r\n\r\nat the bottom${close}`;
}

const OVER_THE_BOUND = '5.6.0 Message refused: it would store more than the 1048576 bytes a case keeps';
/** A text part of 998,400 bytes: under CASE_STORAGE_BYTES alone. */
const NEAR_THE_BOUND = `${'x'.repeat(76)}\r\n`.repeat(12_800);

/** A text part and one small attachment per name. */
function withAttachments(text: string, names: string[], headers = ''): string {
  const files = names.map((name) => `--b\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment; filename="${name}"\r\n\r\nfile\r\n`).join('');
  return `${HEAD}${headers}Content-Type: multipart/mixed; boundary="b"\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\n${text}\r\n${files}--b--\r\n`;
}

describe('hostile mail', () => {
  let t: MailApp;
  let w: EmailWorkflow;
  before(async () => {
    t = await startMailApp({ SMTP_MAX_MESSAGE_BYTES: String(4 * 1024 * 1024) });
    w = await givenEmailWorkflow(t);
  });
  after(async () => { await t.close(); await closeDb(); });

  const attachmentRows = async () => Number((await db().query('SELECT count(*) AS n FROM case_attachments')).rows[0].n);

  /** Refused for good (5xx, never a temporary 4xx a sender would retry forever), in bounded time, with nothing stored; the listener goes on. */
  async function assertRefused(message: string | Buffer, text: string | RegExp) {
    const attachmentsBefore = await attachmentRows();
    const started = performance.now();
    const result = await send(t, { to: [w.address], message });
    const ms = performance.now() - started;
    assert.equal(result.data?.code, 554, JSON.stringify(result));
    if (typeof text === 'string') assert.equal(result.data?.text, text);
    else assert.match(result.data!.text, text);
    assert.ok(ms < WITHIN_MS, `answered after ${Math.round(ms)} ms`);
    assert.deepEqual(await caseIdsOf(w.workflowId), []);
    assert.equal(await attachmentRows(), attachmentsBefore, 'no attachment stored');
  }

  it('a 10,000-part MIME message is refused (554 5.6.0)', async () => {
    await assertRefused(manyParts(10_000), '5.6.0 Message refused: Max allowed child nodes exceeded');
  });

  it('a multipart nested 1,000 levels deep is refused (554 5.6.0)', async () => {
    // Whichever of the two limits the parser meets first.
    await assertRefused(nested(1_000), /^5\.6\.0 Message refused: (MIME parts nested deeper than 32 levels|Max allowed child nodes exceeded)$/);
    await assertRefused(nested(100), '5.6.0 Message refused: MIME parts nested deeper than 32 levels');
  });

  it('a header of 1 MB is refused (554 5.6.0), folded or not', async () => {
    await assertRefused(`${HEAD}X-Padding: ${'a'.repeat(1024 * 1024)}\r\n\r\nbody\r\n`, '5.6.0 Message refused: Max header size for a MIME node exceeded');
    await assertRefused(`${HEAD}X-Padding: ${'a\r\n '.repeat(350 * 1024)}\r\n\r\nbody\r\n`, '5.6.0 Message refused: Max header size for a MIME node exceeded');
  });

  it('a NUL character, which Postgres text cannot hold, is refused rather than altered (554 5.6.0)', async () => {
    await assertRefused(`${HEAD}\r\nbefore\0after\r\n`, '5.6.0 Message refused: it holds a NUL character, which cannot be stored');
  });

  it('text and HTML parts over 1 MiB together, which every read of the case would carry, are refused (554 5.6.0)', async () => {
    const text = `${'x'.repeat(76)}\r\n`.repeat(8_000);
    const html = `<p>${'y'.repeat(72)}</p>\r\n`.repeat(6_000);
    const message = `${HEAD}Content-Type: multipart/alternative; boundary="b"\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\n${text}--b\r\nContent-Type: text/html\r\n\r\n${html}--b--\r\n`;
    await assertRefused(message, OVER_THE_BOUND);
  });

  it('150 attachments with 16,000-character names: each name is stored cut to 255 characters, its extension kept', async () => {
    const names = Array.from({ length: 150 }, (_, i) => `${i}-${'n'.repeat(16_000)}.txt`);
    const other = await givenEmailWorkflow(t);
    await sendAccepted(t, other.address, withAttachments('', names));
    const email = (await onlyCase(t, other)).attributes.email;
    assert.deepEqual(email.attachments.map((a: { filename: string }) => a.filename), names.map((name) => `${name.slice(0, 251)}.txt`));
    assert.ok(Buffer.byteLength(JSON.stringify({ email })) < 100_000);
  });

  it('the bound counts everything a case stores: text under 1 MiB is refused (554 5.6.0) when attachment names and headers take the attributes past it', async () => {
    await assertRefused(withAttachments(NEAR_THE_BOUND, Array.from({ length: 150 }, (_, i) => `${i}-${'n'.repeat(300)}.pdf`)), OVER_THE_BOUND);
  });

  it('a reply counts the same: one that would store more than the bound in the timeline is refused (554 5.6.0) and leaves the case as it was', async () => {
    const other = await givenEmailWorkflow(t);
    await sendAccepted(t, other.address, mail({ Subject: 'first', 'Message-ID': '<first@example.com>' }, 'hello\n'));
    const { id } = await onlyCase(t, other);
    const before = await timeline(t, other, id);
    const reply = withAttachments(NEAR_THE_BOUND, Array.from({ length: 150 }, (_, i) => `${i}-${'n'.repeat(300)}.pdf`), 'In-Reply-To: <first@example.com>\r\n');
    const result = await send(t, { to: [other.address], message: reply });
    assert.deepEqual([result.data?.code, result.data?.text], [554, OVER_THE_BOUND]);
    assert.deepEqual(await timeline(t, other, id), before);
  });

  it('several connections of hostile mail at once leave the listener answering normal mail', async () => {
    const results = await Promise.all([manyParts(10_000), nested(1_000), manyParts(5_000)].map((message) => send(t, { to: [w.address], message })));
    assert.deepEqual(results.map((r) => r.data?.code), [554, 554, 554]);
    await sendAccepted(t, w.address, mail({ Subject: 'still here' }, 'hello\n'));
    const c = await onlyCase(t, w);
    assert.equal(c.subject, 'still here');
  });
});

describe('mail-borne text that is stored as text, never interpreted', () => {
  let t: MailApp;
  before(async () => { t = await startMailApp(); });
  after(async () => { await t.close(); await closeDb(); });

  it('encoded line breaks in headers stay inside their value; unknown and UTF-7 charsets are not turned into markup', async () => {
    const w = await givenEmailWorkflow(t);
    await sendAccepted(t, w.address, [
      'From: =?utf-8?Q?Eve=0D=0ABcc:_victim@example.com?= <eve@example.com>',
      'Subject: =?utf-8?Q?hello=0D=0AX-Injected:_1?=',
      'Content-Type: multipart/mixed; boundary=b', '',
      '--b', 'Content-Type: text/plain; charset=x-no-such-charset', '', 'plain ascii', '',
      '--b', 'Content-Type: text/plain; charset=utf-7', '', '+ADw-script+AD4-', '',
      '--b', 'Content-Type: text/plain', 'Content-Disposition: attachment; filename="=?utf-8?Q?a=0D=0ASet-Cookie:_x=3D1.txt?="', '', 'file', '',
      '--b--', '',
    ].join('\r\n'));
    const c = await onlyCase(t, w);
    const email = c.attributes.email;
    assert.equal(email.subject, 'hello\r\nX-Injected: 1');
    assert.equal(email.from.address, 'eve@example.com');
    // Text parts are joined with a line break; the UTF-7 part is left as its ASCII bytes.
    assert.equal(email.text, 'plain ascii\n\n+ADw-script+AD4-\n');
    const [file] = email.attachments;
    const res = await t.request('GET', `/api/admin/v1/cases/${c.id}/attachments/${file.id}`, { token: w.org.adminToken });
    assert.equal(res.status, 200);
    assert.equal(res.headers['set-cookie'], undefined);
    assert.equal(res.headers['content-disposition'], `attachment; filename="a__Set-Cookie: x=1.txt"; filename*=UTF-8''a%0D%0ASet-Cookie%3A%20x%3D1.txt`);
  });
});

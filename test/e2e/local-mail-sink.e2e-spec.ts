/** The local stack's mail sink: what a digest sent through it looks like on its page. */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import nodemailer from 'nodemailer';
import { type MailSink, startMailSink } from '../../scripts/local-mail-sink.js';

describe('local mail sink', () => {
  let dir: string;
  let sink: MailSink;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mail-sink-'));
    sink = await startMailSink(dir, 0, 0);
  });
  after(async () => {
    await sink.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps what is sent to it and shows it, inline image and text part included', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
    await nodemailer.createTransport(sink.smtpUrl).sendMail({
      from: 'reports@localhost', to: 'ops@example.com', subject: 'Case report <daily>', text: 'Cases created: 3',
      html: '<p>Cases created: 3</p><img src="cid:chart@digest">', attachments: [{ content: png, cid: 'chart@digest', contentType: 'image/png' }],
    });
    const list = await (await fetch(sink.pageUrl)).text();
    assert.match(list, /Local mail \(1\)/);
    const link = /href="(\/messages\/[^"]+\.eml)">Case report &lt;daily&gt;<\/a>/.exec(list);
    assert.ok(link, list);
    const shown = await fetch(new URL(link[1]!, sink.pageUrl));
    assert.equal(shown.status, 200);
    assert.match(shown.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    const page = await shown.text();
    assert.match(page, /<iframe sandbox="allow-popups allow-popups-to-escape-sandbox" srcdoc="[^"]*data:image\/png;base64,/);
    assert.match(page, /<pre>Cases created: 3/);
    assert.equal((await fetch(new URL('/messages/../../etc/passwd', sink.pageUrl))).status, 404);
  });

  it('takes free ports when asked for taken ones with elseFree (start:local), and fails on them otherwise', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      await assert.rejects(startMailSink(join(dir, 'strict'), port, 0), { code: 'EADDRINUSE' });
      const moved = await startMailSink(join(dir, 'moved'), port, port, { elseFree: true });
      try {
        assert.notEqual(new URL(moved.smtpUrl).port, String(port));
        assert.notEqual(new URL(moved.pageUrl).port, String(port));
        assert.match(await (await fetch(moved.pageUrl)).text(), /Local mail \(0\)/);
      } finally {
        await moved.stop();
      }
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});

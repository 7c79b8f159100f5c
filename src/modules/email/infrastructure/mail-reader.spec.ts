import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { MAIL_LIMITS } from '../domain/mail-limits.js';
import { readMail } from './mail-reader.js';

const HEAD = 'From: Ada <ada@example.com>\r\nSubject: test\r\nMIME-Version: 1.0\r\n';
const read = (message: string | Buffer, maxBytes = 1 << 24) => readMail(Readable.from([Buffer.from(message)]), maxBytes);

/** `depth` multiparts, each inside the one before, around one text part. */
function nested(depth: number): string {
  let open = '';
  let close = '';
  for (let i = 0; i < depth; i++) {
    open += `Content-Type: multipart/mixed; boundary=b${i}\r\n\r\n--b${i}\r\n`;
    close = `\r\n--b${i}--\r\n${close}`;
  }
  return `${HEAD}${open}Content-Type: text/plain\r\n\r\ndeep${close}`;
}

describe('readMail', () => {
  it('reads the text, the addresses and an attachment with its SHA-256', async () => {
    const reading = await read(`${HEAD}Content-Type: multipart/mixed; boundary=x\r\n\r\n--x\r\nContent-Type: text/plain\r\n\r\nhi\r\n--x\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment; filename=a.bin\r\nContent-Transfer-Encoding: base64\r\n\r\nAAEC\r\n--x--\r\n`);
    assert.equal(reading.kind, 'read');
    if (reading.kind !== 'read') return;
    assert.deepEqual(reading.message.from, { address: 'ada@example.com', name: 'Ada' });
    assert.equal(reading.message.text, 'hi');
    assert.equal(reading.message.html, null);
    const [file] = reading.message.attachments;
    assert.deepEqual([file!.filename, file!.contentType, [...file!.content], file!.sha256.toString('hex')],
      ['a.bin', 'application/octet-stream', [0, 1, 2], 'ae4b3280e56e2faf83f414a6e3dabe9d5fbe18976544c05fed121accb85b53fc']);
  });

  it('keeps at most 255 characters of an attachment name, whatever the header held', async () => {
    // RFC 2231 continuations: one name of 5,000 characters outside the BMP over 100 header lines.
    const name = Array.from({ length: 100 }, (_, i) => ` filename*${i}*=${i === 0 ? "utf-8''" : ''}${'%F0%9F%93%8E'.repeat(50)};`).join('\r\n');
    const reading = await read(`${HEAD}Content-Type: multipart/mixed; boundary=x\r\n\r\n--x\r\nContent-Type: application/pdf\r\nContent-Disposition: attachment;\r\n${name}\r\n\r\nfile\r\n--x--\r\n`);
    assert.equal(reading.kind, 'read', JSON.stringify(reading));
    if (reading.kind !== 'read') return;
    assert.equal(reading.message.attachments[0]!.filename, '📎'.repeat(255));
  });

  it('takes multiparts nested as deep as the limit allows and refuses one level more', async () => {
    const deepest = await read(nested(MAIL_LIMITS.depth));
    assert.equal(deepest.kind, 'read', JSON.stringify(deepest));
    assert.deepEqual(await read(nested(MAIL_LIMITS.depth + 1)), { kind: 'unreadable', reason: `MIME parts nested deeper than ${MAIL_LIMITS.depth} levels` });
  });

  it(`refuses more than ${MAIL_LIMITS.parts} parts and a part header over ${MAIL_LIMITS.headerBytes} bytes`, async () => {
    const parts = (n: number) => `${HEAD}Content-Type: multipart/mixed; boundary=p\r\n\r\n${'--p\r\nContent-Type: text/plain\r\n\r\nx\r\n'.repeat(n)}--p--\r\n`;
    assert.equal((await read(parts(MAIL_LIMITS.parts - 1))).kind, 'read');
    assert.deepEqual(await read(parts(MAIL_LIMITS.parts + 1)), { kind: 'unreadable', reason: 'Max allowed child nodes exceeded' });
    assert.deepEqual(await read(`${HEAD}X-Big: ${'a'.repeat(MAIL_LIMITS.headerBytes)}\r\n\r\nbody\r\n`), { kind: 'unreadable', reason: 'Max header size for a MIME node exceeded' });
  });

  it('stops parsing past the size limit, and still reads the source to its end', async () => {
    const source = Readable.from(Array.from({ length: 64 }, () => Buffer.alloc(1024, 'a')));
    assert.deepEqual(await readMail(source, 10_000), { kind: 'too_large' });
    assert.equal(source.readableEnded, true);
  });

  it('takes the Date header as sent, null when it does not parse or is missing', async () => {
    const dated = await read(`${HEAD}Date: Tue, 24 Nov 2026 10:11:12 +0100\r\n\r\nx\r\n`);
    const undated = await read(`${HEAD}Date: yesterday-ish\r\n\r\nx\r\n`);
    assert.equal(dated.kind === 'read' && dated.message.date?.toISOString(), '2026-11-24T09:11:12.000Z');
    assert.equal(undated.kind === 'read' && undated.message.date, null);
  });
});

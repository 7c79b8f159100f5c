/**
 * Generated mail for the property and fuzz suites: MIME trees (nested multiparts, embedded
 * messages, text and HTML parts, attachments) with long, encoded and hostile header values and
 * file names, and text whose stored JSON costs more than its bytes (escaped control characters,
 * 4-byte characters). Sizes reach past CASE_STORAGE_BYTES and the parser's limits, so both
 * stored and refused messages come up. Used by test/e2e/mail-storage.e2e-spec.ts and
 * test/e2e/fuzz-mail.e2e-spec.ts.
 */
import fc from 'fast-check';

export type MimePart =
  | { kind: 'text'; subtype: 'plain' | 'html'; content: string; encoding: 'base64' | '8bit' }
  | { kind: 'attachment'; filename: string | null; nameEncoding: 'quoted' | 'rfc2231' | 'encoded-word'; contentType: string; bytes: number }
  | { kind: 'multipart'; subtype: 'mixed' | 'alternative' | 'related'; parts: MimePart[] }
  | { kind: 'message'; headers: [string, string][]; body: MimePart };

export interface GeneratedMail {
  headers: [string, string][];
  body: MimePart;
}

/** One character repeated: what it costs stored as JSON ranges from its own byte to six (`\u0001`). */
const FILL = fc.constantFrom('x', ' ', 'é', '✓', '😀', '"', '\\', '\u0001', '\t', '<');

/** Text of up to `max` characters, built as runs (fast-check's own strings are far too slow at these sizes). */
function text(max: number): fc.Arbitrary<string> {
  const run = fc.tuple(FILL, fc.noBias(fc.nat({ max }))).map(([c, n]) => c.repeat(n));
  return fc.array(run, { minLength: 1, maxLength: 4 }).map((runs) => [...runs.join('')].slice(0, max).join(''));
}

const shortText = text(200);
const longText = fc.oneof({ weight: 6, arbitrary: text(2_000) }, { weight: 2, arbitrary: text(20_000) }, { weight: 1, arbitrary: text(100_000) });
const bodyText = fc.oneof({ weight: 1, arbitrary: text(5_000) }, { weight: 3, arbitrary: text(700_000) });

const address = fc.tuple(fc.nat({ max: 99_999 }), fc.constantFrom('example.com', 'mail.example', 'xn--bcher-kva.example')).map(([n, d]) => `u${n}@${d}`);
const mailbox = fc.tuple(shortText, address).map(([name, addr]) => `${encodedWords(name)} <${addr}>`);
const addressList = fc.oneof(fc.array(mailbox, { minLength: 1, maxLength: 5 }), fc.array(address, { minLength: 100, maxLength: 1_500 })).map((list) => list.join(',\r\n '));

const headers: fc.Arbitrary<[string, string][]> = fc
  .record({
    from: mailbox,
    to: addressList,
    cc: fc.option(addressList, { nil: undefined }),
    subject: fc.option(longText, { nil: undefined }),
    references: fc.array(fc.nat({ max: 1e9 }).map((n) => `<r${n}@gen.example>`), { maxLength: 300 }),
    extra: fc.array(fc.tuple(fc.constantFrom('X-Padding', 'Comments', 'Keywords', 'X-Mailer'), longText), { maxLength: 2 }),
  })
  .map(({ from, to, cc, subject, references, extra }) => [
    ['From', from], ['To', to], ...(cc === undefined ? [] : [['Cc', cc]]), ...(subject === undefined ? [] : [['Subject', encodedWords(subject)]]),
    ...(references.length ? [['References', references.join('\r\n ')]] : []),
    ...extra.map(([name, value]) => [name, encodedWords(value)]),
  ] as [string, string][]);

const fileName = fc.oneof(
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 2, arbitrary: shortText },
  { weight: 3, arbitrary: fc.tuple(text(16_000), fc.constantFrom('.pdf', '.tar.gz', '', '.😀')).map(([stem, ext]) => stem + ext) },
);

const attachment: fc.Arbitrary<MimePart> = fc.record({
  kind: fc.constant('attachment' as const),
  filename: fileName,
  nameEncoding: fc.constantFrom('quoted' as const, 'rfc2231' as const, 'encoded-word' as const),
  contentType: fc.constantFrom('application/pdf', 'image/png', 'text/x-"odd"', 'not a type'),
  bytes: fc.nat({ max: 3_000 }),
});

const textPart: fc.Arbitrary<MimePart> = fc.record({
  kind: fc.constant('text' as const),
  subtype: fc.constantFrom('plain' as const, 'html' as const),
  content: bodyText,
  encoding: fc.constantFrom('base64' as const, '8bit' as const),
});

const { part } = fc.letrec<{ part: MimePart; multipart: MimePart; message: MimePart }>((tie) => ({
  part: fc.oneof({ depthSize: 'small', maxDepth: 6 }, { weight: 2, arbitrary: textPart }, { weight: 1, arbitrary: attachment }, { weight: 2, arbitrary: tie('multipart') }, { weight: 1, arbitrary: tie('message') }),
  multipart: fc.record({
    kind: fc.constant('multipart' as const),
    subtype: fc.constantFrom('mixed' as const, 'alternative' as const, 'related' as const),
    parts: fc.oneof(fc.array(tie('part'), { minLength: 1, maxLength: 4 }), fc.array(attachment, { minLength: 50, maxLength: 200 })),
  }),
  message: fc.record({ kind: fc.constant('message' as const), headers, body: tie('part') }),
}));

/** A whole message: headers and a MIME tree. */
export const generatedMail: fc.Arbitrary<GeneratedMail> = fc.record({ headers, body: part });

/** Damage a sender can do to a message's bytes: cut it short, drop bytes into it, break its lines. */
export type Damage = { kind: 'none' } | { kind: 'truncate'; at: number } | { kind: 'insert'; at: number; bytes: number[] } | { kind: 'bare-lf' };

export const damage: fc.Arbitrary<Damage> = fc.oneof(
  { weight: 4, arbitrary: fc.constant({ kind: 'none' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('truncate' as const), at: fc.double({ min: 0, max: 1, noNaN: true }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('insert' as const), at: fc.double({ min: 0, max: 1, noNaN: true }), bytes: fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 1, maxLength: 200 }) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'bare-lf' as const }) },
);

/** The message as sent, CRLF line ends; `extra` headers go first (the tests' Message-ID and In-Reply-To). */
export function renderMail(mail: GeneratedMail, extra: [string, string][] = [], harm: Damage = { kind: 'none' }): Buffer {
  const message = Buffer.from(`${headerBlock([...extra, ['MIME-Version', '1.0'], ...mail.headers])}${renderPart(mail.body, 'b0')}`, 'utf8');
  switch (harm.kind) {
    case 'none':
      return message;
    case 'truncate':
      return message.subarray(0, Math.floor(harm.at * message.length));
    case 'insert': {
      const at = Math.floor(harm.at * message.length);
      return Buffer.concat([message.subarray(0, at), Buffer.from(harm.bytes), message.subarray(at)]);
    }
    case 'bare-lf':
      return Buffer.from(message.toString('latin1').replace(/\r\n/g, '\n'), 'latin1');
  }
}

function headerBlock(fields: [string, string][]): string {
  return fields.map(([name, value]) => `${name}: ${value}\r\n`).join('');
}

function renderPart(part: MimePart, boundary: string): string {
  switch (part.kind) {
    case 'text': {
      const head = `Content-Type: text/${part.subtype}; charset=utf-8\r\nContent-Transfer-Encoding: ${part.encoding}\r\n\r\n`;
      return head + (part.encoding === 'base64' ? base64Lines(Buffer.from(part.content, 'utf8')) : lines(part.content));
    }
    case 'attachment':
      return `Content-Type: ${part.contentType}\r\nContent-Disposition: attachment${nameParameter(part)}\r\nContent-Transfer-Encoding: base64\r\n\r\n${base64Lines(Buffer.alloc(part.bytes, 7))}`;
    case 'multipart': {
      const children = part.parts.map((child, i) => `--${boundary}\r\n${renderPart(child, `${boundary}.${i}`)}\r\n`).join('');
      return `Content-Type: multipart/${part.subtype}; boundary="${boundary}"\r\n\r\n${children}--${boundary}--\r\n`;
    }
    case 'message':
      return `Content-Type: message/rfc822\r\n\r\n${headerBlock(part.headers)}${renderPart(part.body, `${boundary}m`)}`;
  }
}

function nameParameter(part: Extract<MimePart, { kind: 'attachment' }>): string {
  if (part.filename === null) return '';
  switch (part.nameEncoding) {
    case 'quoted':
      return `; filename="${part.filename.replace(/[\\"\r\n]/g, '_')}"`;
    case 'rfc2231': {
      const encoded = encodeURIComponent(part.filename).replace(/['()*!]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
      // Continuations of at most 300 characters or %XX triples each, never splitting a triple.
      const chunks = encoded.match(/(?:%[0-9A-F]{2}|[^%]){1,300}/g) ?? [''];
      return chunks.map((chunk, i) => `;\r\n filename*${i}*=${i === 0 ? "utf-8''" : ''}${chunk}`).join('');
    }
    case 'encoded-word':
      return `; filename="${encodedWords(part.filename)}"`;
  }
}

/** A header value as UTF-8 encoded words of at most about 600 bytes each, folded between them. */
function encodedWords(value: string): string {
  const words: string[] = [];
  let chunk = '';
  for (const char of value) {
    chunk += char;
    if (Buffer.byteLength(chunk) >= 600) {
      words.push(chunk);
      chunk = '';
    }
  }
  if (chunk || !words.length) words.push(chunk);
  return words.map((word) => `=?utf-8?B?${Buffer.from(word, 'utf8').toString('base64')}?=`).join('\r\n ');
}

function base64Lines(bytes: Buffer): string {
  return `${(bytes.toString('base64').match(/.{1,76}/g) ?? []).join('\r\n')}\r\n`;
}

/** 8bit text in lines SMTP can carry (200 characters, at most 800 bytes). */
function lines(content: string): string {
  return `${(content.match(/.{1,200}/gsu) ?? ['']).join('\r\n')}\r\n`;
}

import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { type AddressObject, type AttachmentStream, type EmailAddress, MailParser, type MessageText } from 'mailparser';
import { type InboundAttachment, type InboundMessage, type MailAddress, messageIdOrNull, messageIdsIn, safeContentType, storableFilename } from '../domain/inbound-message.js';
import { MAIL_LIMITS } from '../domain/mail-limits.js';

export type MailReading = { kind: 'read'; message: InboundMessage } | { kind: 'too_large' } | { kind: 'unreadable'; reason: string };

/** What mailparser's splitter hands its parser for each MIME part (not in its type declarations). */
interface SplitterNode {
  type: string;
  parentNode?: SplitterNode;
}
type Done = (err?: Error) => void;
const parseChunk = (MailParser.prototype as unknown as { processChunk(this: MailParser, data: SplitterNode, done: Done): void }).processChunk;

/**
 * mailparser with the limits of MAIL_LIMITS: its splitter counts parts and header bytes itself;
 * the nesting depth is checked here, on each part as the splitter announces it, before any line
 * of the part is compared with the enclosing boundaries. (A unit spec proves the check runs.)
 */
class BoundedMailParser extends MailParser {
  constructor() {
    super({
      maxChildNodes: MAIL_LIMITS.parts,
      maxHeadSize: MAIL_LIMITS.headerBytes,
      // The text and HTML are kept as sent: no conversion of one into the other, no links added.
      skipHtmlToText: true,
      skipTextToHtml: true,
      skipTextLinks: true,
      checksumAlgo: false,
    });
  }

  processChunk(data: SplitterNode, done: Done): void {
    if (data.type === 'node' && depthOf(data) > MAIL_LIMITS.depth) return done(new Error(`MIME parts nested deeper than ${MAIL_LIMITS.depth} levels`));
    parseChunk.call(this, data, done);
  }
}

function depthOf(node: SplitterNode): number {
  let depth = 0;
  for (let parent = node.parentNode; parent; parent = parent.parentNode) depth++;
  return depth;
}

/**
 * Reads a message from the SMTP DATA stream, counting its bytes: past `maxBytes` nothing more
 * reaches the parser and the rest is read and dropped, so memory never holds more than the limit
 * (decoded parts are never larger than their encoding). The source is always read to its end,
 * which the SMTP session needs before it can answer.
 */
export function readMail(source: Readable, maxBytes: number): Promise<MailReading> {
  return new Promise((resolve) => {
    const parser = new BoundedMailParser();
    const attachments: InboundAttachment[] = [];
    let text: MessageText | undefined;
    let bytes = 0;
    let failure: MailReading | undefined;

    let sourceEnded = false;
    const fail = (reading: MailReading) => {
      failure ??= reading;
      source.unpipe(parser);
      parser.destroy();
      source.resume();
      if (sourceEnded) resolve(failure);
    };
    parser.on('data', (part: AttachmentStream | MessageText) => {
      if (part.type === 'text') {
        text = part;
        return;
      }
      const chunks: Buffer[] = [];
      part.content.on('data', (chunk: Buffer) => chunks.push(chunk));
      part.content.on('end', () => {
        const content = Buffer.concat(chunks);
        attachments.push({ filename: storableFilename(part.filename ?? null), contentType: safeContentType(part.contentType), content, sha256: createHash('sha256').update(content).digest() });
        part.release?.();
      });
    });
    parser.on('error', (err: Error) => fail({ kind: 'unreadable', reason: err.message }));
    parser.on('end', () => resolve(failure ?? { kind: 'read', message: inboundMessage(parser, text, attachments) }));
    source.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > maxBytes && !failure) fail({ kind: 'too_large' });
    });
    source.on('end', () => {
      sourceEnded = true;
      if (failure) resolve(failure);
    });
    source.pipe(parser);
  });
}

function inboundMessage(parser: MailParser, text: MessageText | undefined, attachments: InboundAttachment[]): InboundMessage {
  const html = text?.html ?? null;
  return {
    from: addresses(parser.from)[0] ?? null,
    to: addresses(parser.to),
    cc: addresses(parser.cc),
    subject: parser.subject ?? null,
    // Without a text/plain part the parser still reports an empty text next to the HTML.
    text: html !== null && !text?.text ? null : (text?.text ?? null),
    html,
    messageId: messageIdOrNull(parser.messageId),
    inReplyTo: messageIdsIn(parser.inReplyTo)[0] ?? null,
    references: messageIdsIn(parser.references),
    date: headerDate(parser),
    autoSubmitted: headerText(parser, 'auto-submitted'),
    precedence: headerText(parser, 'precedence'),
    autoReply: headerText(parser, 'x-autoreply') ?? headerText(parser, 'x-autorespond'),
    attachments,
  };
}

/** Mailboxes in order, the members of groups included. */
function addresses(header: AddressObject | AddressObject[] | undefined): MailAddress[] {
  const flatten = (entries: EmailAddress[]): MailAddress[] =>
    entries.flatMap((e) => (e.group ? flatten(e.group) : e.address ? [{ address: e.address, name: e.name }] : []));
  return [header ?? []].flat().flatMap((h) => flatten(h.value));
}

/** A header's first value as text, or null when the message has none. */
function headerText(parser: MailParser, name: string): string | null {
  const value = [(parser.headers || undefined)?.get(name) ?? []].flat()[0];
  return typeof value === 'string' ? value : null;
}

/** The Date header as sent; mailparser puts the time of parsing in place of one that does not parse, which is not the sender's. */
function headerDate(parser: MailParser): Date | null {
  const line = (parser.headerLines || []).find((l) => l.key === 'date');
  if (!line) return null;
  const date = new Date(line.line.slice(line.line.indexOf(':') + 1).trim());
  return Number.isNaN(date.getTime()) ? null : date;
}

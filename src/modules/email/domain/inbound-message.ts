import { randomUUID } from 'node:crypto';

export interface MailAddress {
  address: string;
  name: string;
}

/** An attachment as read from the message: decoded bytes and their SHA-256. */
export interface InboundAttachment {
  filename: string | null;
  contentType: string;
  content: Buffer;
  sha256: Buffer;
}

/** A received message, decoded: every text in UTF-8, every part's bytes as they were encoded. */
export interface InboundMessage {
  from: MailAddress | null;
  to: MailAddress[];
  cc: MailAddress[];
  subject: string | null;
  text: string | null;
  html: string | null;
  messageId: string | null;
  inReplyTo: string | null;
  references: string[];
  date: Date | null;
  /** The `Auto-Submitted` and `Precedence` headers as sent (see isAutomatic). */
  autoSubmitted: string | null;
  precedence: string | null;
  /** `X-Autoreply` (or `X-Autorespond`) as sent: the mark of auto-responders that set no Auto-Submitted. */
  autoReply?: string | null;
  /** The SMTP envelope's sender was `<>` (a bounce or delivery notice). */
  nullReturnPath?: boolean;
  attachments: InboundAttachment[];
}

/** An attachment with the id it is kept under on one case. */
export interface IdentifiedAttachment extends InboundAttachment {
  id: string;
}

/** A Message-ID as sent, `<...>`; anything else (or longer than a header line may be) cannot name a message. */
const MESSAGE_ID = /^<[^<>\s]{1,996}>$/;

export function messageIdOrNull(value: string | undefined | null): string | null {
  const trimmed = value?.trim();
  return trimmed && MESSAGE_ID.test(trimmed) ? trimmed : null;
}

/** The Message-IDs a header such as In-Reply-To or References names, in order; anything else in it is ignored. */
export function messageIdsIn(value: string | readonly string[] | undefined | null): string[] {
  const text = [value ?? []].flat().join(' ');
  return (text.match(/<[^<>\s]{1,996}>/g) ?? []).slice(-MAX_REFERENCES);
}

/** How many of a message's References are looked up, the most recent ones. */
export const MAX_REFERENCES = 100;

/** What a `type/subtype` may hold (RFC 6838 names); anything else is served as bytes of no known type. */
const CONTENT_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

export function safeContentType(value: string | undefined): string {
  const lower = (value ?? '').trim().toLowerCase();
  return CONTENT_TYPE.test(lower) ? lower : 'application/octet-stream';
}

/** Characters of a case subject, as the cases API and forms allow; the whole Subject stays in the `email` attribute. */
const MAX_SUBJECT_CHARS = 1000;

/** The case subject: the message's Subject, trimmed and cut to 1,000 characters; null when there is none (the case then gets the default subject). */
export function caseSubject(message: InboundMessage): string | null {
  const subject = message.subject?.trim();
  return subject ? cutToChars(subject, MAX_SUBJECT_CHARS) : null;
}

/** Characters an attachment's name keeps: what file systems allow, while a MIME header could carry 128 KiB. */
export const MAX_FILENAME_CHARS = 255;
/** Longer than this, what follows the last dot is no extension a program would go by. */
const MAX_EXTENSION_CHARS = 16;

/** An attachment's name as stored: at most MAX_FILENAME_CHARS characters, a longer one cut before its extension. */
export function storableFilename(name: string | null): string | null {
  if (name === null) return null;
  const chars = Array.from(name);
  if (chars.length <= MAX_FILENAME_CHARS) return name;
  const dot = chars.lastIndexOf('.');
  const extension = dot > 0 && chars.length - dot <= MAX_EXTENSION_CHARS ? chars.slice(dot) : [];
  return [...chars.slice(0, MAX_FILENAME_CHARS - extension.length), ...extension].join('');
}

/** The first `max` characters (code points, so a surrogate pair is never split). */
function cutToChars(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : chars.slice(0, max).join('');
}

/** The Message-IDs a reply names, the most telling first: In-Reply-To, then References from the latest back. */
export function replyCandidates(message: InboundMessage): string[] {
  const candidates = [...(message.inReplyTo ? [message.inReplyTo] : []), ...[...message.references].reverse()];
  return [...new Set(candidates)];
}

/** The attachments with fresh ids, for one case: each case keeps its own copy. */
export function identifyAttachments(message: InboundMessage): IdentifiedAttachment[] {
  return message.attachments.map((attachment) => ({ ...attachment, id: randomUUID() }));
}

/** The `email` attribute of a case that came by email, and the fields of an `email_received` timeline event. */
export function emailFields(message: InboundMessage, attachments: readonly IdentifiedAttachment[]): Record<string, unknown> {
  return {
    from: message.from,
    to: message.to,
    cc: message.cc,
    subject: message.subject,
    text: message.text,
    html: message.html,
    message_id: message.messageId,
    in_reply_to: message.inReplyTo,
    references: message.references,
    date: message.date?.toISOString() ?? null,
    attachments: attachments.map((a) => ({ id: a.id, filename: a.filename, content_type: a.contentType, size: a.content.length, sha256: a.sha256.toString('hex') })),
  };
}

/** The attributes of a case the message creates, as parsed and as the text that is stored. */
export function emailAttributes(message: InboundMessage, attachments: readonly IdentifiedAttachment[]): { value: Record<string, unknown>; text: string } {
  const value = { email: emailFields(message, attachments) };
  return { value, text: JSON.stringify(value) };
}

/** Postgres text cannot hold U+0000, so a message with one anywhere in its text cannot be kept as it is. */
export function holdsNul(message: InboundMessage): boolean {
  const addresses = [message.from ?? [], message.to, message.cc].flat();
  const texts = [
    message.subject, message.text, message.html, message.messageId, message.inReplyTo, ...message.references,
    ...addresses.flatMap((a) => [a.address, a.name]),
    ...message.attachments.map((a) => a.filename),
  ];
  return texts.some((text) => text?.includes('\0'));
}

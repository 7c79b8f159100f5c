import { randomUUID } from 'node:crypto';

export type Visibility = 'internal' | 'public';
export const VISIBILITIES: readonly Visibility[] = ['internal', 'public'];

/** A comment's body, in UTF-8 bytes (casework.md: up to 64 KB). */
export const MAX_BODY_BYTES = 65_536;
/** Mentions a note may make: more are ignored, so one note cannot mail a whole organization by the hundred. */
export const MAX_MENTIONS = 20;
/** Recipients a public reply may have (the first message's From and Cc). */
export const MAX_RECIPIENTS = 20;
/** Characters of a reply's subject, after `Re: `. */
const MAX_SUBJECT_CHARS = 200;

export interface CommentAuthor {
  id: number | null;
  email: string | null;
  /** Who to name when the author is not a person (an admin token's name). */
  name: string;
}

export interface Comment {
  id: number;
  organizationId: number;
  caseId: number;
  author: CommentAuthor;
  visibility: Visibility;
  body: string;
  createdAt: Date;
  delivery: { to: string[]; status: 'queued' | 'sent' | 'failed' } | null;
}

/**
 * A mailbox the service will write to: one address, nothing that could end a header or start
 * another recipient. Addresses come from strangers' mail and case attributes.
 */
const PLAIN_ADDRESS = /^[^\s@<>()[\],;:"\\]{1,64}@[A-Za-z0-9.-]{1,253}$/;

export function plainAddress(value: unknown): string | null {
  return typeof value === 'string' && PLAIN_ADDRESS.test(value) ? value.toLowerCase() : null;
}

/** `@<address>` in a note: the addresses it names, in order, at most MAX_MENTIONS, lower case. */
export function mentionedAddresses(body: string): string[] {
  const found = new Set<string>();
  for (const match of body.matchAll(/(?:^|[\s(])@([^\s@<>()[\],;:"\\]{1,64}@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)/g)) {
    const address = plainAddress(match[1]);
    if (address) found.add(address);
    if (found.size === MAX_MENTIONS) break;
  }
  return [...found];
}

/**
 * The subject of a reply: `Re: ` and the case's subject on one line. Any control character
 * (CR and LF above all) becomes a space, so a subject a stranger chose cannot end the header and
 * add others (Bcc, a second body).
 */
export function replySubject(subject: string): string {
  // eslint-disable-next-line no-control-regex
  const oneLine = subject.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').replace(/\s+/g, ' ').trim();
  const base = /^re:/i.test(oneLine) ? oneLine.replace(/^re:\s*/i, '') : oneLine;
  return `Re: ${Array.from(base).slice(0, MAX_SUBJECT_CHARS).join('')}`.trimEnd();
}

/**
 * A reply's Message-ID, chosen when it is queued and sent as is by every attempt. Not the
 * service's automatic-mail shape (isServiceMessageId): a person's answer to a person's reply is
 * no machine's mail.
 */
export function replyMessageId(fromAddress: string): string {
  return `<reply.${randomUUID()}@${fromAddress.slice(fromAddress.lastIndexOf('@') + 1)}>`;
}

/** Whether a body fits: a string of at most MAX_BODY_BYTES bytes, not blank. */
export function bodyProblem(body: unknown): string | null {
  if (typeof body !== 'string' || body.trim() === '') return 'must be a non-empty string';
  if (Buffer.byteLength(body, 'utf8') > MAX_BODY_BYTES) return `must be at most ${MAX_BODY_BYTES} bytes`;
  if (body.includes('\0')) return 'must not hold a NUL character';
  return null;
}

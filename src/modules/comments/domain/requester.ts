import { MAX_RECIPIENTS, plainAddress } from './comment.js';

/** Where a public reply goes and which thread it continues. */
export interface Requester {
  to: string[];
  inReplyTo: string | null;
  references: string[];
}

/** Local parts that are machines answering mail, never a requester: a bounce is not answered. */
const MACHINE_SENDERS = /^(mailer-daemon|postmaster|no-?reply|do-?not-?reply)$/i;
const MAX_REFERENCES = 20;
/** A Message-ID as a header may carry it: attributes can be changed through the API, so a stored one is checked again. */
const MESSAGE_ID = /^<[^<>\s]{1,996}>$/;
const messageId = (value: unknown): string | null => (typeof value === 'string' && MESSAGE_ID.test(value) ? value : null);

/**
 * The requester of a case (casework.md section 3), or null when it is unknown. An email case's
 * is the first message's From and Cc, without the service's own addresses (`ownAddress` says
 * which), threaded after that message; a mail from a machine (a bounce, MAILER-DAEMON) has no
 * requester. Otherwise the attribute the workflow's `requester_attribute` points at, when it
 * holds an address.
 */
export function requesterOf(attributes: Record<string, unknown>, isEmailCase: boolean, requesterPointer: string | undefined, ownAddress: (address: string) => boolean): Requester | null {
  if (isEmailCase) {
    const email = attributes.email as { from?: { address?: unknown }; cc?: { address?: unknown }[]; message_id?: unknown; references?: unknown } | undefined;
    const from = plainAddress(email?.from?.address);
    if (!from || MACHINE_SENDERS.test(from.slice(0, from.indexOf('@'))) || ownAddress(from)) return null;
    const cc = (Array.isArray(email?.cc) ? email.cc : []).map((c) => plainAddress(c?.address)).filter((a): a is string => a !== null && !ownAddress(a));
    const to = [...new Set([from, ...cc])].slice(0, MAX_RECIPIENTS);
    const first = messageId(email?.message_id);
    const earlier = Array.isArray(email?.references) ? email.references.map(messageId).filter((r): r is string => r !== null) : [];
    return { to, inReplyTo: first, references: [...earlier, ...(first ? [first] : [])].slice(-MAX_REFERENCES) };
  }
  if (!requesterPointer) return null;
  const address = plainAddress(attributes[requesterPointer.slice(1).replace(/~1/g, '/').replace(/~0/g, '~')]);
  return address ? { to: [address], inReplyTo: null, references: [] } : null;
}

import { isServiceMessageId } from '../../../shared/mail/service-message-id.js';
import type { InboundMessage } from './inbound-message.js';

/**
 * `Precedence` values of mail no person wrote (RFC 3834 section 2). `list` is left out: a
 * person's answer through a mailing list carries it, and is a reply like any other.
 */
const AUTOMATIC_PRECEDENCE = new Set(['bulk', 'junk', 'auto_reply']);

/** Senders that are mail systems, not people: their mail is a bounce or a notice. */
const SYSTEM_SENDERS = /^(mailer-daemon|postmaster)@/i;

/**
 * Whether a machine sent the message: `Auto-Submitted` other than `no` (RFC 3834), an automatic
 * `Precedence`, `X-Autoreply`, a bounce (`MAIL FROM:<>`, or from MAILER-DAEMON or postmaster),
 * or an answer to (or a copy of) the service's own mail. Such mail reopens no case, starts no
 * run and notifies no one, so an auto-responder and the service (its automation, its public
 * replies, its notifications) never feed each other.
 */
export function isAutomatic(message: InboundMessage): boolean {
  const autoSubmitted = message.autoSubmitted?.split(';')[0]!.trim().toLowerCase();
  if (autoSubmitted && autoSubmitted !== 'no') return true;
  if (AUTOMATIC_PRECEDENCE.has(message.precedence?.trim().toLowerCase() ?? '')) return true;
  if (message.autoReply !== undefined && message.autoReply !== null && message.autoReply.trim().toLowerCase() !== 'no') return true;
  if (message.nullReturnPath || SYSTEM_SENDERS.test(message.from?.address ?? '')) return true;
  const named = [message.messageId, message.inReplyTo, ...message.references];
  return named.some((id) => id !== null && isServiceMessageId(id));
}

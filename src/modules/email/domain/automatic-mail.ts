import { isServiceMessageId } from '../../../shared/mail/service-message-id.js';
import type { InboundMessage } from './inbound-message.js';

/**
 * `Precedence` values of mail no person wrote (RFC 3834 section 2). `list` is left out: a
 * person's answer through a mailing list carries it, and is a reply like any other.
 */
const AUTOMATIC_PRECEDENCE = new Set(['bulk', 'junk', 'auto_reply']);

/**
 * Whether a machine sent the message: `Auto-Submitted` other than `no` (RFC 3834), an automatic
 * `Precedence`, or an answer to (or a copy of) the service's own mail. Such mail reopens no case
 * and starts no run, so an auto-responder and a workflow's automation never feed each other.
 */
export function isAutomatic(message: InboundMessage): boolean {
  const autoSubmitted = message.autoSubmitted?.split(';')[0]!.trim().toLowerCase();
  if (autoSubmitted && autoSubmitted !== 'no') return true;
  if (AUTOMATIC_PRECEDENCE.has(message.precedence?.trim().toLowerCase() ?? '')) return true;
  const named = [message.messageId, message.inReplyTo, ...message.references];
  return named.some((id) => id !== null && isServiceMessageId(id));
}

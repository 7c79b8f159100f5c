import { randomUUID } from 'node:crypto';

/**
 * The Message-ID of mail the service sends (digests, recipient confirmations), recognisable when
 * mail that answers it comes back through the SMTP listener: an answer to the service's own mail
 * (an out-of-office reply to a digest a workflow inbox received) is no reason to start a run.
 */
export function serviceMessageId(from: string): string {
  return `<${PREFIX}${randomUUID()}@${from.slice(from.lastIndexOf('@') + 1)}>`;
}

export function isServiceMessageId(messageId: string): boolean {
  return SERVICE_MESSAGE_ID.test(messageId);
}

const PREFIX = 'case-intake.';
const SERVICE_MESSAGE_ID = /^<case-intake\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}@[^<>\s]+>$/;

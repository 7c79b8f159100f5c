/**
 * What the listener answers a client when it refuses: the SMTP code, and a text that starts
 * with the enhanced status code (RFC 3463). The texts hold nothing the sender did not send,
 * and no secret.
 */
export interface SmtpReply {
  code: number;
  text: string;
}

export const SMTP_REPLIES = {
  unknownRecipient: { code: 550, text: '5.1.1 Recipient address rejected: no such mailbox' },
  tooLarge: (maxBytes: number): SmtpReply => ({ code: 552, text: `5.3.4 Message size exceeds the fixed maximum of ${maxBytes} bytes` }),
  invalidAttributes: (problem: { path: string; error: string }): SmtpReply => ({
    code: 550,
    text: `5.7.1 Message refused: ${problem.error}${problem.path ? ` (at ${problem.path})` : ''}`,
  }),
  /** A message the parser refuses (a limit of docs/security.md, a broken structure): retrying cannot help. */
  unreadable: (reason: string): SmtpReply => ({ code: 554, text: `5.6.0 Message refused: ${reason}` }),
  /** The database did not answer: the sender keeps the message and tries again later. */
  unavailable: { code: 451, text: '4.3.0 Temporary failure, try again later' },
} as const;

/** A refusal with its reply, thrown by the intake and turned into the SMTP answer by the listener. */
export class MailRefusedError extends Error {
  constructor(readonly reply: SmtpReply) {
    super(reply.text);
  }
}

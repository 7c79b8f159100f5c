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
  /** Replies to one case past EMAIL_MAX_REPLIES_PER_CASE or EMAIL_MAX_REPLY_BYTES_PER_CASE: the case takes no more mail. */
  caseFull: (limit: string): SmtpReply => ({ code: 552, text: `5.2.2 Message refused: the case it answers holds ${limit}, as many as it takes` }),
  /** The client's address group holds SMTP_CONNECTIONS_PER_ADDRESS connections already. */
  tooManyConnections: { code: 421, text: '4.7.0 Too many connections from your address, try again later' },
  /** The process holds all the connections it takes, none idle long enough to make room. */
  listenerFull: { code: 421, text: '4.7.0 Too many connections, try again later' },
  /** The process was full and this connection had delivered nothing for longest: it made room for a new one. */
  idleEvicted: { code: 421, text: '4.4.2 Idle too long while others wait, closing connection' },
  /** SMTP_MAX_REFUSED_RECIPIENTS recipients were refused on the connection: it is closed. */
  tooManyRefusedRecipients: { code: 421, text: '4.5.3 Too many unknown recipients, closing connection' },
  /** The message did not arrive within SMTP_DATA_TIMEOUT_MS of DATA, whatever its byte rate: the connection is closed. */
  dataTimeout: (ms: number): SmtpReply => ({ code: 421, text: `4.4.2 Message not received within ${ms / 1000} seconds, closing connection` }),
  /** The workflow's address took EMAIL_MESSAGES_PER_MINUTE this minute: the sender keeps the message and tries again later. */
  tooManyMessages: { code: 451, text: '4.7.1 Too many messages to this address, try again later' },
  /** The database did not answer: the sender keeps the message and tries again later. */
  unavailable: { code: 451, text: '4.3.0 Temporary failure, try again later' },
} as const;

/** A refusal with its reply, thrown by the intake and turned into the SMTP answer by the listener. */
export class MailRefusedError extends Error {
  constructor(readonly reply: SmtpReply) {
    super(reply.text);
  }
}

/**
 * Bounds on what one message may cost, beside SMTP_MAX_MESSAGE_BYTES (docs/security.md, mail-borne
 * input). Each is far above what real mail needs and keeps parsing time and memory linear in the
 * message size.
 */
export const MAIL_LIMITS = {
  /** MIME parts in a message, the message itself included. */
  parts: 500,
  /**
   * How deeply multiparts (and embedded messages) may nest. The parser compares a line that
   * could be a boundary with every enclosing multipart's boundary, so depth multiplies its work.
   */
  depth: 32,
  /** The header block of one part, in bytes. */
  headerBytes: 128 * 1024,
  /** RCPT TO commands in one transaction. */
  recipients: 100,
  /** Connections open at once, per process. */
  connections: 50,
  /**
   * When the process holds `connections`, how long one must have gone without delivering a
   * message before a new connection takes its place (421, closed). A sender caches an idle
   * connection for seconds (Postfix: 2 s), so only a held one is ever this idle.
   */
  idleBeforeEviction: 10_000,
  /** Messages read and stored at once, per process; the others wait, their senders held by TCP back-pressure. */
  messagesInProgress: 4,
  /**
   * Of those, what one client (an address group: an IPv6 /64 is one) may hold at once: a sender
   * trickling its messages holds one slot until SMTP_DATA_TIMEOUT_MS, never every sender's.
   */
  messagesInProgressPerAddress: 1,
} as const;

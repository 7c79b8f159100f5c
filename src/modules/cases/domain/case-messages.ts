/** What a case keeps of the messages it receives and the comments people make on it. */

/** A file a case received with a message, kept with the case (`id` is chosen at intake, so the attributes can name it). */
export interface CaseAttachment {
  id: string;
  filename: string | null;
  contentType: string;
  sha256: Buffer;
  content: Buffer;
}

/** What a case keeps of a message it received: its files, and its Message-ID for the replies that will name it. */
export interface ReceivedMessage {
  attachments: readonly CaseAttachment[];
  messageId: string | null;
}

/**
 * A comment as the case records it. A public reply's mail has its `messageId` from the start,
 * kept like a received message's, so the requester's answer to it threads into the case.
 */
export interface CaseComment {
  id: number;
  visibility: 'internal' | 'public';
  author: { id: number | null; email: string | null };
  messageId: string | null;
  /** A public reply's text, which its `case.commented` event carries; an internal note's never leaves the comments module. */
  publicBody: string | null;
}

import { useId, useState } from 'preact/hooks';
import { download, errorMessage, type Case, type EmailAttachment, type EmailMessage, type Mailbox, type TimelineEvent } from '../api.ts';
import { Alert, Badge, DateTime, DetailList } from '../components.tsx';
import { formatBytes } from '../format.ts';
import { useAction } from '../hooks.ts';

/*
 * The email thread of a case that came by email: the first message (its `email` attribute)
 * and each reply (an `email_received` timeline event). Every part of a message is text the
 * sender wrote, so it is only ever rendered as text; the HTML part goes into a sandboxed
 * frame on demand, never into this page.
 */

/** The fields of an `email_received` event that make up its message (shown in the thread, not again in the timeline). */
export const EMAIL_FIELDS = ['from', 'to', 'cc', 'subject', 'text', 'html', 'message_id', 'in_reply_to', 'references', 'date', 'attachments'];

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const textOrNull = (value: unknown) => (typeof value === 'string' ? value : null);

function mailboxOf(value: unknown): Mailbox | null {
  return isRecord(value) && typeof value.address === 'string' ? { address: value.address, name: textOrNull(value.name) ?? '' } : null;
}

function listOf<T>(value: unknown, read: (item: unknown) => T | null): T[] {
  return Array.isArray(value) ? value.map(read).filter((item): item is T => item !== null) : [];
}

function attachmentOf(value: unknown): EmailAttachment | null {
  if (!isRecord(value) || typeof value.id !== 'string' || typeof value.size !== 'number') return null;
  return { id: value.id, filename: textOrNull(value.filename), content_type: textOrNull(value.content_type) ?? 'application/octet-stream', size: value.size, sha256: textOrNull(value.sha256) ?? '' };
}

/**
 * The message in an `email` attribute or an `email_received` event; null when it is not one
 * (an automation may have overwritten the attribute in a workflow that keeps any attributes).
 */
export function emailMessageOf(fields: unknown): EmailMessage | null {
  if (!isRecord(fields) || !Array.isArray(fields.attachments)) return null;
  return {
    from: mailboxOf(fields.from),
    to: listOf(fields.to, mailboxOf),
    cc: listOf(fields.cc, mailboxOf),
    subject: textOrNull(fields.subject),
    text: textOrNull(fields.text),
    html: textOrNull(fields.html),
    message_id: textOrNull(fields.message_id),
    in_reply_to: textOrNull(fields.in_reply_to),
    references: listOf(fields.references, textOrNull),
    date: textOrNull(fields.date),
    attachments: listOf(fields.attachments, attachmentOf),
  };
}

/** `Ada Lovelace <ada@example.com>`, or the address alone. */
export function formatMailbox(mailbox: Mailbox | null): string {
  if (!mailbox) return 'an unknown sender';
  return mailbox.name ? `${mailbox.name} <${mailbox.address}>` : mailbox.address;
}

export const subjectOf = (message: EmailMessage) => message.subject?.trim() || '(no subject)';

interface ThreadMessage {
  key: string;
  received: string;
  reply: boolean;
  message: EmailMessage;
}

function threadOf(c: Case, events: TimelineEvent[]): ThreadMessage[] {
  // Only a case that came by email has its first message in `email` (another may have an attribute of that name).
  const first = c.source_type === 'Email' ? emailMessageOf(c.attributes.email) : null;
  const thread: ThreadMessage[] = first ? [{ key: 'first', received: c.created_at, reply: false, message: first }] : [];
  for (const event of events) {
    const message = event.type === 'email_received' ? emailMessageOf(event) : null;
    if (message) thread.push({ key: `event-${event.id}`, received: event.at, reply: true, message });
  }
  return thread;
}

export function EmailThread({ c, events }: { c: Case; events: TimelineEvent[] }) {
  const messages = threadOf(c, events);
  if (messages.length === 0) return null;
  return (
    <section class="card" aria-labelledby="case-email-thread">
      <h2 id="case-email-thread" class="card__title">
        Email thread
        <span class="card__subtitle">
          {messages.length} message{messages.length === 1 ? '' : 's'}
        </span>
      </h2>
      <ol class="email-thread">
        {messages.map((item) => (
          <li key={item.key}>
            <MessageView caseId={c.id} item={item} />
          </li>
        ))}
      </ol>
    </section>
  );
}

function MessageView({ caseId, item }: { caseId: number; item: ThreadMessage }) {
  const id = useId();
  const { message, reply } = item;
  const none = <span class="muted">None</span>;
  const mailboxes = (list: Mailbox[]) => (list.length ? list.map(formatMailbox).join(', ') : none);
  return (
    <article class="email" aria-labelledby={`${id}-subject`}>
      <header class="email__header">
        <h3 class="email__subject" id={`${id}-subject`}>
          {subjectOf(message)}
        </h3>
        <Badge tone={reply ? 'teal' : 'blue'}>{reply ? 'Reply' : 'First message'}</Badge>
      </header>
      <DetailList
        rows
        items={[
          ['From', message.from ? formatMailbox(message.from) : <span class="muted">Not given</span>],
          ['To', mailboxes(message.to)],
          ['Cc', mailboxes(message.cc)],
          ['Date', message.date ? <DateTime iso={message.date} /> : <span class="muted">Not given</span>],
          ['Received', <DateTime iso={item.received} />],
        ]}
      />
      {message.text !== null ? <pre class="email__text">{message.text}</pre> : <p class="muted">This message has no text part.</p>}
      {message.html !== null && <HtmlPart html={message.html} subject={subjectOf(message)} />}
      {message.attachments.length > 0 && <Attachments caseId={caseId} attachments={message.attachments} headingId={`${id}-attachments`} />}
    </article>
  );
}

/**
 * The HTML part, on demand, in a frame sandboxed with no permissions at all: no scripts, a
 * unique opaque origin (so no access to this page, its storage or the admin token), no forms,
 * popups or navigation of this page. The frame also inherits the dashboard's content security
 * policy: nothing from other sites (tracking pixels) loads, and the mail's inline styles are
 * not applied, since allowing them would mean loosening the dashboard's own style-src.
 */
function HtmlPart({ html, subject }: { html: string; subject: string }) {
  const [shown, setShown] = useState(false);
  const frameId = useId();
  return (
    <div class="email__html">
      <div>
        <button type="button" class="button button--secondary button--small" aria-expanded={shown} aria-controls={frameId} onClick={() => setShown(!shown)}>
          {shown ? 'Hide the HTML part' : 'Show the HTML part'}
        </button>
      </div>
      <div id={frameId} class="stack stack--tight" hidden={!shown}>
        {shown && (
          <>
            {/* `sandbox` comes first, so it is on the element before the frame ever loads. */}
            <iframe sandbox="" srcdoc={html} referrerpolicy="no-referrer" class="email__frame" title={`HTML part of “${subject}”`} />
            <p class="hint">Shown in a locked-down frame: its scripts and forms do not run, and its own styling and anything it would load from other sites (remote images included) are left out. Inline images are listed with the attachments.</p>
          </>
        )}
      </div>
    </div>
  );
}

function Attachments({ caseId, attachments, headingId }: { caseId: number; attachments: EmailAttachment[]; headingId: string }) {
  return (
    <div class="attachments">
      <h4 id={headingId} class="attachments__title">
        Attachments ({attachments.length})
      </h4>
      <ul class="attachments__list" aria-labelledby={headingId}>
        {attachments.map((attachment) => (
          <AttachmentItem key={attachment.id} caseId={caseId} attachment={attachment} />
        ))}
      </ul>
    </div>
  );
}

/** Saves a file the page holds: a link to a blob URL with a `download` name, clicked. */
export function saveFile(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = Object.assign(document.createElement('a'), { href: url, download: filename });
  document.body.append(link);
  link.click();
  link.remove();
  // The browser reads the blob after the click returns; release it once the download surely started.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

function AttachmentItem({ caseId, attachment }: { caseId: number; attachment: EmailAttachment }) {
  const filename = attachment.filename || `attachment-${attachment.id}`;
  // The API wants the admin token in a header, which a plain link cannot send: fetch, then save.
  const save = useAction(async () => saveFile(await download(`/cases/${caseId}/attachments/${encodeURIComponent(attachment.id)}`), filename));
  return (
    <li class="attachment">
      <div class="attachment__head">
        <button type="button" class="link-button attachment__name" onClick={() => save.run()} disabled={save.pending}>
          <span class="visually-hidden">Download </span>
          {filename}
        </button>
        <span class="attachment__meta">
          {attachment.content_type} · {formatBytes(attachment.size)}
        </span>
        <span role="status" class="attachment__status">
          {save.pending ? 'Downloading…' : ''}
        </span>
      </div>
      <p class="attachment__hash">
        SHA-256 <code>{attachment.sha256}</code>
      </p>
      {save.error !== null && <Alert tone="error">{`${filename} could not be downloaded: ${errorMessage(save.error)}`}</Alert>}
    </li>
  );
}

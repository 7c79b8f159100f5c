import { object, type Schema, schemaRef } from '../../shared/http/openapi-schema.js';

const mailbox = object({ address: { type: 'string' }, name: { type: 'string', description: 'The display name; empty when none was given.' } });
const messageId: Schema = { type: ['string', 'null'], pattern: '^<[^<>\\s]+>$', description: 'A Message-ID with its angle brackets; null when there is none (or it is not one).' };

export const emailSchemas: Record<string, Schema> = {
  EmailAddress: object({
    address: { type: 'string', description: 'The workflow\'s secret inbound address, `<secret>@<INBOUND_EMAIL_DOMAIN>`; whoever knows it can open cases.' },
  }),
  EmailAttachment: object({
    id: { type: 'string', format: 'uuid', description: 'Download it at `.../cases/{case_id}/attachments/{id}`.' },
    filename: { type: ['string', 'null'] },
    content_type: { type: 'string', description: 'As sent; `application/octet-stream` when that was not a valid media type.' },
    size: { type: 'integer', minimum: 0, description: 'Bytes, decoded.' },
    sha256: { type: 'string', pattern: '^[0-9a-f]{64}$', description: 'SHA-256 of the decoded bytes, hex.' },
  }),
};

/**
 * The fields of an `email_received` timeline event, which are those of an email case's `email`
 * attribute; `to` is the timeline's own (a status for `status_changed`, recipients here).
 */
export const emailEventFields: Record<string, Schema> = {
  from: { ...mailbox, type: ['object', 'null'] },
  cc: { type: 'array', items: mailbox },
  subject: { type: ['string', 'null'], description: 'The `Subject` header, decoded.' },
  text: { type: ['string', 'null'], description: 'The `text/plain` part(s), decoded to UTF-8 exactly from their charset and transfer encoding, line ends as LF; null when the message has only HTML.' },
  html: { type: ['string', 'null'], description: 'The `text/html` part(s) as sent (decoded to UTF-8; `cid:` links kept). Never render it unescaped.' },
  message_id: messageId,
  in_reply_to: messageId,
  references: { type: 'array', items: { type: 'string' }, description: 'The Message-IDs of `References`, in order (at most the last 100).' },
  date: { type: ['string', 'null'], format: 'date-time', description: 'The `Date` header in UTC; null when absent or unreadable.' },
  attachments: { type: 'array', items: schemaRef('EmailAttachment') },
};

export const timelineTo: Schema = {
  type: ['string', 'array', 'object', 'null'],
  items: mailbox,
  description: '`status_changed`, `priority_changed`: the new status or priority. `email_received`: the `To` recipients. `assigned`: the new assignee (`id`, `email`), or null.',
};

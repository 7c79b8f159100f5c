import { object, resourceId, type Schema, timestamp } from '../../shared/http/openapi-schema.js';
import { MAX_BODY_BYTES } from '../comments/domain/comment.js';

/** Comments, watchers and notification preferences (casework.md sections 3 and 4). */
export const commentSchemas: Record<string, Schema> = {
  Comment: object(
    {
      id: resourceId('Comment id; comments are listed in the order they were made.'),
      author: object({ id: { type: ['integer', 'null'], description: 'The person\'s user id; null for an admin token.' }, email: { type: ['string', 'null'] } }),
      visibility: { type: 'string', enum: ['internal', 'public'], description: '`internal`: the organization\'s people only. `public`: also mailed to the case\'s requester.' },
      body: { type: 'string', description: `The text, up to ${MAX_BODY_BYTES} bytes (UTF-8).` },
      created_at: timestamp('When it was made'),
      delivery: {
        type: ['object', 'null'],
        description: 'A public reply\'s mail to the requester (null for an internal note): its recipients and whether the worker has sent it yet, or gave up after an hour of refusals.',
        properties: { to: { type: 'array', items: { type: 'string' } }, status: { type: 'string', enum: ['queued', 'sent', 'failed'] } },
        required: ['to', 'status'],
        additionalProperties: false,
      },
    },
    [],
    'A comment on a case.',
  ),
  NotificationPreferences: object(
    {
      assigned: { type: 'boolean', description: 'Mail when a case is assigned to me.' },
      mentioned: { type: 'boolean', description: 'Mail when a note mentions me.' },
      watched: { type: 'boolean', description: 'Mail when a case I watch (or am assigned) gets a requester\'s reply, moves to `Error`, or its SLA warns or breaches.' },
    },
    [],
    'Which notification mails a person gets; all on unless turned off.',
  ),
};

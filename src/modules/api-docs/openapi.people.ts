import { object, resourceId, type Schema, timestamp } from '../../shared/http/openapi-schema.js';
import { ROLES } from '../../shared/http/roles.js';

/** An organization's people and who is calling (people.md, sections 1 and 2). */

const role = { type: 'string', enum: [...ROLES], description: '`owner`: everything. `admin`: all but users. `editor`: drafts, test runs, versions, reads. `viewer`: reads of cases, timelines, runs, reports and usage.' };

export const peopleSchemas: Record<string, Schema> = {
  User: object(
    {
      id: resourceId('User id.'),
      email: { type: 'string' },
      role,
      status: { type: 'string', enum: ['invited', 'active'], description: '`invited` until the person first signs in.' },
      created_at: timestamp('When the user was invited'),
      last_seen_at: { type: ['string', 'null'], format: 'date-time', description: 'Last request of one of their sessions, to the minute; null if never signed in.' },
    },
    [],
    'A person of the organization.',
  ),
  Me: object(
    {
      caller: object({ type: { type: 'string', enum: ['user', 'token'] }, id: resourceId('The user\'s or the token\'s id.'), name: { type: 'string', description: 'The user\'s email address or the token\'s name.' } }),
      role,
      organization: object({ id: resourceId('Organization id.') }),
      csrf_token: { type: 'string', description: 'For a session only: the value of the `X-CSRF-Token` header its state-changing requests without `Origin` send.' },
    },
    ['csrf_token'],
    'Who is calling.',
  ),
};

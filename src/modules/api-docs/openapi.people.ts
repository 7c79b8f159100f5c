import { object, resourceId, type Schema, timestamp } from '../../shared/http/openapi-schema.js';
import { ROLES } from '../../shared/http/roles.js';
import { MAX_SSO_EMAIL_DOMAINS, SSO_DEFAULT_ROLES } from '../people/domain/sso.js';

/** An organization's people and who is calling (people.md, sections 1 and 2). */

const role = { type: 'string', enum: [...ROLES], description: '`owner`: everything. `admin`: all but users. `editor`: drafts, test runs, versions, reads. `agent`: works cases (assignment, comments, bulk changes, export, merge) and reads the statuses and attribute schemas of workflows. `viewer`: reads of cases, timelines, runs, reports and usage.' };

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
  SsoConfiguration: object(
    {
      issuer: { type: 'string', description: 'The OpenID provider\'s issuer identifier.' },
      client_id: { type: 'string' },
      email_domains: { type: 'array', items: { type: 'string' }, maxItems: MAX_SSO_EMAIL_DOMAINS, description: 'Lower-case, sorted: a verified email address of one of these signs in.' },
      domain_verifications: {
        type: 'array',
        maxItems: MAX_SSO_EMAIL_DOMAINS,
        description: 'Each listed domain in the order of `email_domains`: whether it is verified (a typed address of it is sent to this provider), and the DNS TXT record that verifies it (`verifySsoDomains`).',
        items: object(
          {
            domain: { type: 'string' },
            verified: { type: 'boolean' },
            record_name: { type: 'string', description: 'Where the TXT record goes: `_case-intake.<domain>`.' },
            record_value: { type: 'string', description: 'What it says: `case-intake-domain-verification=<this organization\'s token>`.' },
          },
          [],
        ),
      },
      default_role: { type: 'string', enum: [...SSO_DEFAULT_ROLES], description: 'The role of a person who signs in for the first time.' },
      required: { type: 'boolean', description: '`true`: sign-in links are refused for the organization\'s users.' },
      created_at: timestamp('When single sign-on was first set'),
      updated_at: timestamp('When it was last replaced'),
    },
    [],
    'An organization\'s single sign-on; the client secret is never shown.',
  ),
};

import { object, resourceId, type Schema, timestamp } from '../../shared/http/openapi-schema.js';
import { PRIORITIES } from '../cases/domain/case-work.js';
import { MAX_TEAM_MEMBERS } from '../teams/domain/team.js';

/** Who works a case (casework.md, section 2): the admin case's fields, and teams. */

export const caseWorkFields: Record<string, Schema> = {
  assignee: {
    type: ['object', 'null'],
    properties: { id: resourceId('User id.'), email: { type: 'string' } },
    required: ['id', 'email'],
    additionalProperties: false,
    description: 'The person working the case; null when nobody is (or their user was deleted).',
  },
  team: {
    type: ['object', 'null'],
    properties: { id: resourceId('Team id.'), name: { type: 'string' } },
    required: ['id', 'name'],
    additionalProperties: false,
    description: 'The team the case is given to; null when none.',
  },
  priority: { type: 'string', enum: [...PRIORITIES], description: 'New cases are `normal`.' },
};

export const caseWorkSchemas: Record<string, Schema> = {
  Team: object(
    {
      id: resourceId('Team id.'),
      name: { type: 'string', description: 'Unique in the organization, whatever the case of its letters.' },
      member_ids: { type: 'array', maxItems: MAX_TEAM_MEMBERS, items: resourceId('User id.'), description: 'The members\' user ids, ascending.' },
      members: {
        type: 'array',
        maxItems: MAX_TEAM_MEMBERS,
        items: { type: 'object', properties: { id: resourceId('User id.'), email: { type: 'string' } }, required: ['id', 'email'], additionalProperties: false },
        description: 'The members with their emails, in the order of `member_ids` (so an agent, who may not list users, can name them); a member whose user was deleted is left out.',
      },
      created_at: timestamp('When the team was created'),
    },
    [],
    'A team of people who work cases together.',
  ),
};

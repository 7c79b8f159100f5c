import { object, resourceId, type Schema, timestamp } from '../../shared/http/openapi-schema.js';
import { CASE_COLUMN_NAMES } from '../cases/http/case-csv.js';

/** Saved views and bulk jobs (casework.md, sections 5 and 6). */

const viewFields: Record<string, Schema> = {
  id: resourceId('View id.'),
  name: { type: 'string', minLength: 1, maxLength: 100 },
  filters: { type: 'object', additionalProperties: { type: 'string' }, description: 'The admin case list\'s query parameters, as saved.' },
  columns: { type: 'array', items: { type: 'string', enum: CASE_COLUMN_NAMES }, description: 'The columns shown, in order.' },
  shared: { type: 'boolean', description: 'Shown to everyone of the organization.' },
  owner: { type: ['object', 'null'], properties: { id: resourceId('User id.') }, required: ['id'], additionalProperties: false, description: 'The person who saved it; null for a view saved with an admin token.' },
  created_at: timestamp('When it was saved'),
  updated_at: timestamp('When it was last changed'),
};

export const caseworkSchemas: Record<string, Schema> = {
  CaseView: object(viewFields, [], 'A saved view of the case list.'),
  CountedCaseView: object(
    {
      ...viewFields,
      count: { type: ['integer', 'null'], minimum: 0, description: 'How many cases its filters match now, up to 10,000; null when it could not be counted now (the organization\'s list reads are spent, or the list no longer takes its filters).' },
      count_capped: { type: 'boolean', description: 'More cases than `count` match.' },
    },
    [],
    'A saved view with its current count.',
  ),
  BulkJob: object(
    {
      id: resourceId('Job id.'),
      total: { type: 'integer', minimum: 0, maximum: 10000, description: 'The cases fixed when the job was accepted.' },
      done: { type: 'integer', minimum: 0, description: 'Cases changed.' },
      failed: { type: 'integer', minimum: 0, description: 'Cases that could not be changed (`failures` says why).' },
      state: { type: 'string', enum: ['queued', 'running', 'finished'], description: '`finished` once `done` + `failed` = `total`.' },
      change: { type: 'object', description: 'The change asked for.' },
      created_at: timestamp('When it was accepted'),
      finished_at: { type: ['string', 'null'], format: 'date-time', description: 'When it finished; null before.' },
      failures: {
        type: 'array',
        maxItems: 100,
        description: 'The first 100 cases (by id) that could not be changed, each with why.',
        items: object({ case_id: resourceId('Case id.'), reason: { type: 'string' } }),
      },
    },
    ['change', 'created_at', 'finished_at', 'failures'],
    'A bulk change of cases and its progress.',
  ),
};

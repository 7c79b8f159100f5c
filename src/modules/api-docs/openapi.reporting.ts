import { object, type Schema } from '../../shared/http/openapi-schema.js';
import { CASE_SOURCES } from '../cases/domain/case.js';

/** Reporting (reporting.md): what the report API answers. */

const count = (description: string): Schema => ({ type: 'integer', minimum: 0, description });
const stamp = (description: string): Schema => ({ type: 'string', format: 'date-time', description: `${description} (ISO 8601, in the offset \`from\` was given in)` });
const seconds = (description: string): Schema => ({ type: ['integer', 'null'], minimum: 0, description: `${description}; null when no case closed in the range.` });

export const reportingSchemas: Record<string, Schema> = {
  Digest: object(
    {
      id: { type: 'integer', minimum: 1 },
      schedule: { type: 'string', enum: ['daily', 'weekly'] },
      hour_utc: { type: 'integer', minimum: 0, maximum: 23, description: 'The UTC hour each period ends.' },
      weekday: { type: ['integer', 'null'], minimum: 1, maximum: 7, description: 'ISO weekday a weekly period ends on; null for daily digests.' },
      recipients: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 20, description: 'The addresses as given; only the confirmed ones get the digest.' },
      confirmed_recipients: {
        type: 'array',
        items: { type: 'string' },
        maxItems: 20,
        description: 'Those of `recipients` that confirmed (on the page their confirmation email links to) and did not unsubscribe since; confirming holds for every digest of the organization naming the address.',
      },
      unsubscribed_recipients: {
        type: 'array',
        items: { type: 'string' },
        maxItems: 20,
        description: 'Those of `recipients` that unsubscribed from the organization\'s digests (they get none, and no confirmation email, until they confirm again themselves). The rest are waiting for the recipient to confirm.',
      },
      workflow_ids: { type: ['array', 'null'], items: { type: 'integer', minimum: 1 }, description: 'Only these workflows; null: all of the organization\'s.' },
      created_at: { type: 'string', format: 'date-time' },
      last_sent_at: { type: ['string', 'null'], format: 'date-time', description: 'When a digest of it last reached a recipient (scheduled or by hand); null before the first.' },
      last_failed_at: { type: ['string', 'null'], format: 'date-time', description: 'When a send of it was last given up, the relay having refused it 5 times; null if none was. Kept after later sends succeed: compare with `last_sent_at`.' },
      last_error: { type: ['string', 'null'], maxLength: 200, description: 'The relay\'s last answer to that send (never the relay URL or its credentials); null if none was given up.' },
    },
    [],
    'A report digest sent by email on a schedule.',
  ),
  CaseReport: object(
    {
      from: stamp('Start of the range, moved back to a whole hour'),
      to: stamp('End of the range (exclusive), moved forward to a whole hour'),
      interval: { type: 'string', enum: ['hour', 'day', 'week'] },
      series: {
        type: 'array',
        description: 'Every interval of the range in order, zeros included.',
        items: object({
          start: stamp('Start of the interval'),
          created: count('Live cases created.'),
          closed: count('Moves into Closed.'),
          errored: count('Moves into Error.'),
          created_by_source: object(Object.fromEntries(CASE_SOURCES.map((source) => [source, count(`Created through ${source}.`)])), [], 'Live cases created, by how they came in.'),
        }),
      },
      totals: object({
        created: count('Live cases created in the range.'),
        closed: count('Moves into Closed in the range.'),
        errored: count('Moves into Error in the range.'),
        reopened: count('Moves out of Closed in the range.'),
      }),
      time_to_close_seconds: object(
        {
          p50: seconds('Median time from creation to close'),
          p90: seconds('90th percentile of the time from creation to close'),
          count: count('Closes counted.'),
        },
        [],
        'Of the closes in the range, as the upper bound of the histogram bucket (9% wide) the percentile falls in.',
      ),
      open_by_status: { type: 'object', additionalProperties: { type: 'integer', minimum: 1 }, description: 'Live cases not Closed, by status, now (whatever the range); statuses with none are left out.' },
      top_errors: {
        type: 'array',
        maxItems: 10,
        description: 'The most frequent run failure messages in the range, most frequent first (each cut to 200 characters; beyond 20 distinct messages per workflow and hour, the rest count as "(other errors)").',
        items: object({ message: { type: 'string', maxLength: 200 }, count: count('Failed runs with this message.') }),
      },
    },
    [],
    'Figures of live cases over a range.',
  ),
};

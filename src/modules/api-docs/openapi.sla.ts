import { object, resourceId, type Schema, schemaRef, timestamp } from '../../shared/http/openapi-schema.js';
import { MAX_HOLIDAYS, MAX_INTERVALS_PER_DAY } from '../sla/domain/business-calendar.js';
import { CLOCKS, PRIORITIES } from '../sla/domain/sla-policy.js';

/** Service levels (sla.md sections 1 and 2): what the calendar and SLA policy APIs take and answer. */

const WEEKDAYS_FROM_MONDAY = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const CLOCK_TIME = '^(?:[01][0-9]|2[0-3]):[0-5][0-9]$|^24:00$';
const DURATION = { type: 'string', pattern: '^P(?:[0-9]+D)?(?:T(?:[0-9]+H)?(?:[0-9]+M)?(?:[0-9]+S)?)?$', description: 'ISO 8601 duration in business time: `P…D` whole business days, `PT…H…M…S` business time; above zero, at most 366 days and 8,784 hours.' };

const interval: Schema = { type: 'array', minItems: 2, maxItems: 2, items: { type: 'string', pattern: CLOCK_TIME }, description: '`["HH:MM", "HH:MM"]`, wall-clock start and end on that date; `24:00` ends at midnight.' };
const day: Schema = { type: 'array', maxItems: MAX_INTERVALS_PER_DAY, items: interval, description: 'Open intervals, ordered and not overlapping; empty: closed.' };
const hours: Schema = {
  oneOf: [
    { type: 'string', enum: ['24x7'], description: 'Always open.' },
    { type: 'object', properties: Object.fromEntries(WEEKDAYS_FROM_MONDAY.map((name) => [name, day])), additionalProperties: false, description: 'Per weekday; a weekday left out is closed.' },
  ],
};
const calendarFields: Record<string, Schema> = {
  time_zone: { type: 'string', description: 'IANA time zone, such as `Europe/Berlin`.' },
  hours,
  holidays: { type: 'array', maxItems: MAX_HOLIDAYS, items: { type: 'string', format: 'date' }, description: 'Local dates closed all day (none on a `24x7` calendar).' },
};

const clockTargets: Schema = { type: 'object', properties: Object.fromEntries(CLOCKS.map((clock) => [clock, DURATION])), additionalProperties: false, description: 'A clock left out does not apply at that priority.' };
const policyFields: Record<string, Schema> = {
  calendar: { type: 'string', pattern: '^[A-Za-z0-9 _-]{1,64}$', description: 'The name of the business-hours calendar the targets count in.' },
  targets: { type: 'object', properties: Object.fromEntries(PRIORITIES.map((priority) => [priority, clockTargets])), additionalProperties: false, description: 'Targets per case priority; a priority left out has no clocks.' },
  pause_statuses: { type: 'array', items: { type: 'string' }, description: 'Statuses declared on the workflow in which no clock counts.' },
  warn_before: { type: ['string', 'null'], pattern: DURATION.pattern, description: 'How long before a due time a running clock warns (`case.sla_warning`); null: no warnings.' },
};

const nullableTime = (description: string): Schema => ({ type: ['string', 'null'], format: 'date-time', description });

export const slaSchemas: Record<string, Schema> = {
  SlaClock: object(
    {
      due_at: nullableTime('When the clock reaches its target: while running, when it will; once breached, when it did; once met, the deadline it met. Null while paused.'),
      state: { type: 'string', enum: ['running', 'paused', 'met', 'breached'] },
      met_at: nullableTime('When it was met: the first public reply (first_response), the next public reply (next_response), the close (resolution).'),
      breached_at: nullableTime('When it breached.'),
      paused: { type: 'boolean', description: 'Not counting now: the case is in a pause status (or Closed).' },
    },
    [],
    'One SLA clock of a case, counted in business hours of the policy\'s calendar.',
  ),
  SlaReport: object(
    {
      from: timestamp('The range\'s start'),
      to: timestamp('The range\'s end (excluded)'),
      workflow_id: { type: ['integer', 'null'], description: 'The workflow asked for; null: every workflow with a policy.' },
      cases: { type: 'integer', minimum: 0, description: 'The cases measured.' },
      clocks: {
        type: 'array',
        description: 'Per clock and priority (clocks in the order first_response, next_response, resolution; priorities low to urgent); a pair with nothing measured is left out.',
        items: object({
          clock: { type: 'string', enum: [...CLOCKS] },
          priority: { type: 'string', enum: [...PRIORITIES] },
          measured: { type: 'integer', minimum: 0, description: 'Clock periods ended met or breached.' },
          met: { type: 'integer', minimum: 0 },
          breached: { type: 'integer', minimum: 0 },
          met_share: { type: ['number', 'null'], minimum: 0, maximum: 1, description: 'met / measured; null when nothing was measured.' },
          business_seconds_to_meet: {
            type: ['object', 'null'],
            properties: { p50: { type: 'number', minimum: 0 }, p90: { type: 'number', minimum: 0 } },
            required: ['p50', 'p90'],
            additionalProperties: false,
            description: 'Business time from the period\'s start to its reply or close, median and 90th percentile (nearest rank); null when no period got one.',
          },
        }),
      },
    },
    [],
    'The SLA report (sla.md section 4).',
  ),
  CaseSla: object(
    {
      policy: { type: 'boolean', description: 'Whether an SLA policy applies to the case: a live case of a workflow with a policy, created after it was set.' },
      calendar: object(
        {
          name: { type: 'string', pattern: '^[A-Za-z0-9 _-]{1,64}$' },
          time_zone: { type: 'string', description: 'Its IANA time zone, such as `Europe/Berlin`: the clocks count in its business hours.' },
        },
        [],
        'The business-hours calendar of the policy (present with a policy only).',
      ),
      ...Object.fromEntries(CLOCKS.map((clock) => [clock, schemaRef('SlaClock')])),
    },
    ['calendar', ...CLOCKS],
    'The SLA clocks of a case (sla.md section 2); a clock that does not apply at the case\'s priority (or next_response before the requester\'s first reply) is absent.',
  ),
  CalendarSettings: object(calendarFields, ['holidays'], 'A business-hours calendar as sent.'),
  Calendar: object(
    {
      name: { type: 'string', pattern: '^[A-Za-z0-9 _-]{1,64}$' },
      ...calendarFields,
      created_at: timestamp('When the calendar was first stored'),
      updated_at: timestamp('When it was last replaced'),
    },
    [],
    'A business-hours calendar; weekdays from Monday, holidays in date order.',
  ),
  SlaPolicySettings: object(policyFields, ['pause_statuses', 'warn_before'], 'A workflow\'s SLA policy as sent.'),
  SlaPolicy: object(
    {
      workflow_id: resourceId('The workflow the policy is for.'),
      ...policyFields,
      created_at: timestamp('When the workflow\'s policy was first set: it applies to cases created since'),
      updated_at: timestamp('When it was last replaced'),
    },
    [],
    'A workflow\'s SLA policy.',
  ),
};

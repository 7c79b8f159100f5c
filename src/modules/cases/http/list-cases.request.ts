import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, Matches, ValidateBy, type ValidationOptions } from 'class-validator';
import { InvalidQueryError, InvalidRequestError, type ValidationProblem } from '../../../shared/errors/app-error.js';
import { isPlainObject } from '../../../shared/json/json-text.js';
import { unstorableNumber } from '../../../shared/json/json-numbers.js';
import { pointer } from '../../../shared/json/json-pointer.js';
import { isIsoTimestamp } from '../../../shared/http/iso-timestamp.js';
import { resourceId } from '../../../shared/http/openapi-schema.js';
import { isWellFormedText } from '../../../shared/http/well-formed-text.js';
import { readFeedCursor, readListCursor, readRunsCursor, readSearchCursor, readTimelineCursor } from '../application/case-cursors.js';
import type { ListRequest } from '../application/case-queries.service.js';
import { SOURCE_TYPE } from '../../workflows/domain/workflow-definition.js';
import { CASE_SOURCES } from '../domain/case.js';
import { CASE_COLUMN_NAMES, columnList } from './case-csv.js';
import { PRIORITIES } from '../domain/case-work.js';
import { SLA_FILTERS, type SlaFilter } from '../domain/case-service-levels.js';
import { CASE_SORTS, type CaseSortName, DEFAULT_CASE_SORT } from '../application/case-queries.js';

const POSITIVE_INTEGER = /^[1-9][0-9]{0,15}$/;
const ASSIGNEE = /^(me|none|[1-9][0-9]{0,15})$/;
const PRIORITY_LIST = new RegExp(`^(${PRIORITIES.join('|')})(,(${PRIORITIES.join('|')})){0,3}$`);
const MAX_STATUSES = 50;
const MAX_STATUS_LENGTH = 200;
/**
 * The shape of an `attributes` filter, bounded because Postgres pays for it on every case the
 * list walks (docs/list-filters.md): each array item is compared with every item of the stored
 * array it is matched against, each key and string by its length.
 */
export const MAX_ATTRIBUTE_FILTER_CHARS = 2048;
/** Objects and arrays, the filter itself being the first level. */
const MAX_ATTRIBUTE_FILTER_DEPTH = 4;
/** Array items in the whole filter. */
export const MAX_ATTRIBUTE_FILTER_ITEMS = 20;
const ATTRIBUTE_FILTER_LIMITS = `at most ${MAX_ATTRIBUTE_FILTER_CHARS.toLocaleString('en')} characters, nested at most ${MAX_ATTRIBUTE_FILTER_DEPTH} levels, with at most ${MAX_ATTRIBUTE_FILTER_ITEMS} array items in all`;

/** The 429 of every case list read (CaseQueriesService), as the API documents it. */
export const LIST_READS_REFUSED = 'The organization already has `LIST_READS_PER_ORGANIZATION` (2 by default) list reads (lists and change feeds, cases API and admin API together) under way on this instance, and as many waiting, or its list reads have spent their share of database time on this instance (`LIST_READ_DATABASE_MS_PER_SECOND`): nothing was read. Ask again after `Retry-After` seconds.';

/** Page sizes as text, 1 to 100 and 1 to 200 (documented as integers: a pattern is for strings only). */
const PAGE_SIZE_100 = /^([1-9][0-9]?|100)$/;
const PAGE_SIZE_200 = /^([1-9][0-9]?|1[0-9][0-9]|200)$/;

/** Comma-separated statuses, each 1 to 200 characters of storable text. */
export function statusList(value: string): string[] | undefined {
  const statuses = value.split(',');
  const fits = statuses.length <= MAX_STATUSES && statuses.every((s) => s.length >= 1 && s.length <= MAX_STATUS_LENGTH && isWellFormedText(s));
  return fits ? statuses : undefined;
}

/** Why an `attributes` filter cannot be used, or undefined when it is the text of a JSON object Postgres can compare. */
function attributeFilterProblem(text: string): string | undefined {
  if (text.length > MAX_ATTRIBUTE_FILTER_CHARS) return `attributes must be at most ${MAX_ATTRIBUTE_FILTER_CHARS} characters`;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'attributes must be a JSON object';
  }
  if (!isPlainObject(value)) return 'attributes must be a JSON object';
  if (!allTextWellFormed(value)) return 'attributes must be well-formed text (no unpaired surrogate, no NUL character)';
  const number = unstorableNumber(text);
  return number && `attributes${number.path}: ${number.error}`;
}

/**
 * Where an `attributes` filter (text the query's validation accepted) is shaped beyond the
 * limits: the pointer of the first value nested too deep, or of the first array item past the
 * last one allowed, below `/attributes`.
 */
function attributeFilterShapeProblem(text: string): ValidationProblem | undefined {
  let items = 0;
  const visit = (node: unknown, path: string, depth: number): ValidationProblem | undefined => {
    const array = Array.isArray(node);
    if (!array && !isPlainObject(node)) return undefined;
    if (depth > MAX_ATTRIBUTE_FILTER_DEPTH) return { path, error: `attributes must nest at most ${MAX_ATTRIBUTE_FILTER_DEPTH} levels of objects and arrays` };
    for (const [key, item] of array ? node.entries() : Object.entries(node)) {
      if (array && ++items > MAX_ATTRIBUTE_FILTER_ITEMS) return { path: pointer(path, key), error: `attributes must hold at most ${MAX_ATTRIBUTE_FILTER_ITEMS} array items in all` };
      const problem = visit(item, pointer(path, key), depth + 1);
      if (problem) return problem;
    }
    return undefined;
  };
  return visit(JSON.parse(text), '/attributes', 1);
}

function allTextWellFormed(value: unknown): boolean {
  if (typeof value === 'string') return isWellFormedText(value);
  if (Array.isArray(value)) return value.every(allTextWellFormed);
  if (isPlainObject(value)) return Object.entries(value).every(([key, item]) => isWellFormedText(key) && allTextWellFormed(item));
  return true;
}

/** A class-validator rule from a check of one text value: `problem` says what is wrong with it, or undefined. */
function textRule(name: string, problem: (value: string) => string | undefined, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name,
      validator: {
        validate: (value: unknown) => typeof value === 'string' && problem(value) === undefined,
        defaultMessage: (args) => (typeof args?.value === 'string' ? problem(args.value) : undefined) ?? `${args?.property} must be given once, as text`,
      },
    },
    options,
  );
}

const IsTimestamp = (name: string) => textRule('isIsoTimestamp', (v) => (isIsoTimestamp(v) ? undefined : `${name} must be an ISO 8601 timestamp with its offset, such as 2026-01-31T09:30:00Z`));

/**
 * The filters every case list takes (the cases API's and the admin one); every value arrives
 * as text, and any other parameter is refused by the validation's whitelist.
 */
export class CaseListQuery {
  @IsOptional() @textRule('isStatusList', (v) => (statusList(v) ? undefined : `status must be 1 to ${MAX_STATUSES} comma-separated statuses of 1 to ${MAX_STATUS_LENGTH} characters each`))
  @ApiPropertyOptional({ description: 'Only cases in this status, or in any of several comma-separated ones (`Open,Triage`).' })
  status?: string;

  @IsOptional() @IsIn(['live', 'test'])
  @ApiPropertyOptional({ enum: ['live', 'test'], description: 'Only live or only test cases.' })
  mode?: string;

  @IsOptional() @IsTimestamp('created_after')
  @ApiPropertyOptional({ type: 'string', format: 'date-time', description: 'Only cases created after this instant (ISO 8601 with offset; excluded itself).' })
  created_after?: string;

  @IsOptional() @IsTimestamp('created_before')
  @ApiPropertyOptional({ type: 'string', format: 'date-time', description: 'Only cases created before this instant (excluded itself).' })
  created_before?: string;

  @IsOptional() @IsTimestamp('updated_after')
  @ApiPropertyOptional({ type: 'string', format: 'date-time', description: 'Only cases last changed after this instant (excluded itself).' })
  updated_after?: string;

  @IsOptional() @IsTimestamp('updated_before')
  @ApiPropertyOptional({ type: 'string', format: 'date-time', description: 'Only cases last changed before this instant (excluded itself).' })
  updated_before?: string;

  @IsOptional() @textRule('isAttributeFilter', attributeFilterProblem)
  @ApiPropertyOptional({
    description: `A JSON object (URL-encoded; ${ATTRIBUTE_FILTER_LIMITS}, or a 422 at the offending value's pointer below \`/attributes\`): only cases whose attributes contain it. Nested objects match by containment too (\`{"customer":{"tier":"gold"}}\` matches a customer with more keys); an array matches an array holding those elements.`,
  })
  attributes?: string;

  @IsOptional() @textRule('isSearchText', (v) => (isWellFormedText(v) ? undefined : 'q must be well-formed text (no unpaired surrogate, no NUL character)'))
  @ApiPropertyOptional({
    maxLength: 256,
    description:
      'Full-text search (docs/search.md): words must all match (whole words and their common forms, case- and accent-insensitive), `inv*` matches a prefix (at least 2 letters or digits), `"exact phrase"` the words in order, `-word` excludes; numbers and identifiers (`A-1043`) match whole. At most 256 characters and 16 terms, and at least one term that must match (422 otherwise); empty is no filter. With `q` the cases come by relevance (subject, then attributes, then messages), then newest first.',
  })
  q?: string;

  /** The `next_cursor` of the previous page. */
  @IsOptional() @textRule('isListCursor', (v) => (readListCursor(v) || readSearchCursor(v) ? undefined : 'cursor must be a next_cursor value'))
  @ApiPropertyOptional({ description: 'The `next_cursor` of the previous page (opaque).' })
  cursor?: string;
}

/** Query string of the admin case list. */
export class ListCasesRequest extends CaseListQuery {
  @IsOptional() @Matches(POSITIVE_INTEGER, { message: 'workflow_id must be a positive integer' })
  @ApiPropertyOptional({ ...resourceId('Workflow id'), description: 'Only this workflow\'s cases.' })
  workflow_id?: string;

  @IsOptional() @Matches(SOURCE_TYPE, { message: 'source must be a source type (letters, digits and underscores)' })
  @ApiPropertyOptional({ type: 'string', pattern: SOURCE_TYPE.source, description: `Only cases that came in this way: ${CASE_SOURCES.map((source) => `\`${source}\``).join(', ')}, or an extension's source type.` })
  source?: string;

  @IsOptional() @IsIn(['true'], { message: 'watching must be true' })
  @ApiPropertyOptional({ type: 'string', enum: ['true'], description: 'Only cases the signed-in person watches (an admin token, which is no person, gets 422).' })
  watching?: 'true';

  @IsOptional() @Matches(PAGE_SIZE_100, { message: 'limit must be an integer from 1 to 100' })
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, default: 25, description: 'Page size.' })
  limit?: string;

  @IsOptional() @Matches(ASSIGNEE, { message: 'assignee must be me, none or a user id' })
  @ApiPropertyOptional({ type: 'string', pattern: ASSIGNEE.source, description: 'Only the cases assigned to this user id, to the caller (`me`, a signed-in person only: "my cases"), or to nobody (`none`).' })
  assignee?: string;

  @IsOptional() @Matches(POSITIVE_INTEGER, { message: 'team_id must be a positive integer' })
  @ApiPropertyOptional({ ...resourceId('Team id'), description: 'Only the cases given to this team.' })
  team_id?: string;

  @IsOptional() @Matches(PRIORITY_LIST, { message: `priority must be comma-separated priorities: ${PRIORITIES.join(', ')}` })
  @ApiPropertyOptional({ type: 'string', pattern: PRIORITY_LIST.source, description: 'Only cases of this priority, or of any of several comma-separated ones (`high,urgent`).' })
  priority?: string;

  @IsOptional() @IsIn(SLA_FILTERS, { message: `sla must be one of ${SLA_FILTERS.join(', ')}` })
  @ApiPropertyOptional({ enum: SLA_FILTERS, description: 'Only cases with an SLA clock `breached` (its due time passed before it was met, now or earlier), or `at_risk`: running, within the policy\'s `warn_before` of its due time, not yet breached. As of the worker\'s last SLA pass (about a second behind).' })
  sla?: string;

  @IsOptional() @IsIn(CASE_SORTS)
  @ApiPropertyOptional({ enum: CASE_SORTS, default: DEFAULT_CASE_SORT, description: 'The order: by `created_at`, `updated_at` (the last change), `priority` (`low` to `urgent`) or `due_at` (the due time of the case\'s soonest running SLA clock; cases without one after all others), ascending, or descending with `-`; ties by id in the same direction. A cursor goes with the order it was read in.' })
  sort?: string;
}

/** Query string of the CSV export: the admin list's filters (its `cursor` and `limit` are refused) and the columns. */
export class ExportCasesRequest extends ListCasesRequest {
  @IsOptional() @textRule('isColumnList', (v) => (columnList(v) ? undefined : `columns must be comma-separated column names, each once, of: ${CASE_COLUMN_NAMES.join(', ')}`))
  @ApiPropertyOptional({ description: `Comma-separated columns, in the order wanted, of: ${CASE_COLUMN_NAMES.map((name) => `\`${name}\``).join(', ')} (\`attributes\` is the attributes' JSON text, \`assignee\` the assignee's email, \`team\` the team's name). Every one of them, in that order, unless given.` })
  columns?: string;
}

/** Query string of the cases API's list of one workflow's cases. */
export class ListWorkflowCasesRequest extends CaseListQuery {
  @IsOptional() @Matches(PAGE_SIZE_200, { message: 'limit must be an integer from 1 to 200' })
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 200, default: 50, description: 'Page size.' })
  limit?: string;
}

/** Query string of the change feed. */
export class CaseChangesRequest {
  @IsOptional() @textRule('isFeedCursor', (v) => (readFeedCursor(v) ? undefined : 'after must be a next_cursor value of this feed'))
  @ApiPropertyOptional({ description: 'The `next_cursor` of the previous page (opaque); without it the feed starts at the oldest change still kept.' })
  after?: string;

  @IsOptional() @Matches(PAGE_SIZE_200, { message: 'limit must be an integer from 1 to 200' })
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 200, default: 50, description: 'At most this many cases per page.' })
  limit?: string;
}

/** Query string of a case's timeline (admin API). */
export class TimelineRequest {
  @IsOptional() @textRule('isTimelineCursor', (v) => (readTimelineCursor(v) ? undefined : 'cursor must be a next_cursor value of a timeline'))
  @ApiPropertyOptional({ description: 'The `next_cursor` of the previous page (opaque).' })
  cursor?: string;

  @IsOptional() @Matches(PAGE_SIZE_200, { message: 'limit must be an integer from 1 to 200' })
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 200, default: 100, description: 'At most this many events per page.' })
  limit?: string;
}

/** Query string of a case's runs (admin API). */
export class CaseRunsRequest {
  @IsOptional() @textRule('isRunsCursor', (v) => (readRunsCursor(v) ? undefined : 'after must be a next_cursor value of a case\'s runs'))
  @ApiPropertyOptional({ description: 'The `next_cursor` of the previous page (opaque).' })
  after?: string;

  @IsOptional() @Matches(PAGE_SIZE_200, { message: 'limit must be an integer from 1 to 200' })
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 200, default: 100, description: 'At most this many runs per page.' })
  limit?: string;
}

/**
 * The admin list's own filters and order; `me` is the caller, who must be a signed-in person
 * (an admin token is nobody's assignee: 422).
 */
/** The filters and order only the admin list has; `assignee=me` names the caller. */
export function adminOnlyFilter(query: ListCasesRequest, callerUserId: number | undefined): Pick<ListRequest, 'workflowId' | 'source' | 'assignee' | 'teamId' | 'priorities' | 'sort' | 'watchedBy' | 'sla'> {
  if (query.watching && callerUserId === undefined) throw new InvalidRequestError('watching=true lists the cases the signed-in person watches; an admin token is no person');
  if (query.assignee === 'me' && callerUserId === undefined) throw new InvalidQueryError([{ path: '/assignee', error: 'assignee=me is for a signed-in person; an admin token is assigned nothing' }]);
  const assignee = query.assignee === undefined ? undefined : query.assignee === 'me' ? callerUserId : query.assignee === 'none' ? 'none' : Number(query.assignee);
  return {
    workflowId: query.workflow_id === undefined ? undefined : Number(query.workflow_id),
    source: query.source,
    assignee,
    teamId: query.team_id === undefined ? undefined : Number(query.team_id),
    priorities: query.priority === undefined ? undefined : [...new Set(query.priority.split(','))],
    sort: query.sort as CaseSortName | undefined,
    watchedBy: query.watching ? callerUserId : undefined,
    sla: query.sla as SlaFilter | undefined,
  };
}

/** The filters of a validated list query, as the read side takes them; a 422 for an `attributes` filter shaped beyond the limits. */
export function listFilter(query: CaseListQuery, limit: string | undefined, defaultLimit: number): ListRequest {
  const shape = query.attributes === undefined ? undefined : attributeFilterShapeProblem(query.attributes);
  if (shape) throw new InvalidQueryError([shape]);
  return {
    statuses: query.status === undefined ? undefined : statusList(query.status),
    mode: query.mode,
    createdAfter: query.created_after,
    createdBefore: query.created_before,
    updatedAfter: query.updated_after,
    updatedBefore: query.updated_before,
    attributes: query.attributes,
    limit: limit === undefined ? defaultLimit : Number(limit),
    cursor: query.cursor,
    q: query.q,
  };
}

import { Readable } from 'node:stream';
import { RequiresRole } from '../../../shared/http/route-credentials.js';
import { Body, Controller, Get, Header, Param, Patch, Query, Res, StreamableFile } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiEndpoint } from '../../../shared/http/api-endpoint.decorator.js';
import { IdParamPipe } from '../../../shared/http/id-param.pipe.js';
import { ATTACHMENT_DOWNLOAD, AttachmentId, sendAttachment } from '../../../shared/http/attachment-download.js';
import { object, pageOf, schemaRef, wrapped } from '../../../shared/http/openapi-schema.js';
import type { Principal as Caller } from '../../tokens/domain/principal.js';
import type { CaseProps } from '../domain/case.js';
import { Principal } from '../../tokens/http/principal.decorator.js';
import { CaseQueriesService } from '../application/case-queries.service.js';
import { InvalidRequestError } from '../../../shared/errors/app-error.js';
import type { ChangeAuthor as Author } from '../../audit/domain/audit-entry.js';
import { ChangeAuthor } from '../../audit/http/change-author.decorator.js';
import { CaseWorkService } from '../application/case-work.service.js';
import { adminCaseJson, adminCasePageJson, JSON_CONTENT_TYPE, runJson } from './case.response.js';
import { CASE_COLUMN_NAMES, caseCsv, columnList } from './case-csv.js';
import { CaseRunsRequest, ExportCasesRequest, LIST_READS_REFUSED, ListCasesRequest, TimelineRequest } from './list-cases.request.js';
import { adminListFilter, callerUserId, refusePaging } from './list-filters.js';
import { WorkCaseRequest } from './work-case.request.js';

const DEFAULT_PAGE_SIZE = 25;
const DEFAULT_TIMELINE_PAGE_SIZE = 100;
const DEFAULT_RUNS_PAGE_SIZE = 100;
/** Cases per read of an export: a page costs a few milliseconds of Postgres, and holds a few hundred kB at most. */
const EXPORT_PAGE_SIZE = 500;
const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';
const CaseId = () => Param('caseId', new IdParamPipe('case'));
const CASE_NOT_FOUND = 'The case does not exist or belongs to another organization.';


@Controller('api/admin/v1/cases')
@RequiresRole('viewer')
@ApiTags('Admin cases')
@ApiSecurity('adminToken')
export class AdminCasesController {
  constructor(private readonly queries: CaseQueriesService, private readonly work: CaseWorkService) {}

  @Get()
  @Header('content-type', JSON_CONTENT_TYPE)
  @ApiEndpoint({
    operationId: 'listCases',
    summary: 'List cases',
    description: 'The organization\'s cases, newest first (by `created_at`, then `id`) unless `sort` says otherwise, filtered by every parameter given (the same filters as the cases API\'s list, plus `workflow_id`, `source`, `assignee`, `team_id`, `priority` and `watching`), with how each came in (`source_type`), who works it and how many people watch it (`watchers`). With `q` (full-text search over subject, attributes, email messages and comments) the cases come by relevance, then newest first, each with its `match`, and `sort` is refused. Pages are stable under concurrent inserts: pass `next_cursor` back as `cursor` (with the same `sort` or `q`); it is null on the last page. Any other query parameter is a 422.',
    success: {
      status: 200,
      description: 'One page of cases.',
      schema: pageOf('cases', 'CaseInList'),
    },
    errors: { 422: 'An unknown query parameter, or a value that is not valid for it (`validation_errors` names each); `assignee=me` with an admin token; a cursor read in another `sort`.', 429: LIST_READS_REFUSED },
  })
  async list(@Principal() caller: Caller, @Query() query: ListCasesRequest) {
    const page = await this.queries.list(caller.organizationId, {
      ...adminListFilter(query, callerUserId(caller)),
      limit: query.limit === undefined ? DEFAULT_PAGE_SIZE : Number(query.limit),
      cursor: query.cursor,
      withWatchers: true,
    });
    const assignments = await this.work.assignments(caller.organizationId, page.cases);
    return adminCasePageJson({ cases: page.cases.map((c, i) => ({ case: c, assignment: assignments[i]! })), nextCursor: page.nextCursor, matches: page.matches });
  }

  @Get('export.csv')
  @RequiresRole('agent')
  @ApiEndpoint({
    operationId: 'exportCases',
    summary: 'Export cases as CSV',
    description: [
      'Every case the admin list\'s filters match, newest first, as RFC 4180 CSV (UTF-8, CRLF line ends, a header record of the column names), streamed as it is read: any number of rows in bounded memory. A field whose text starts with `=`, `+`, `-`, `@`, a tab or a carriage return is written with a leading `\'`, so no spreadsheet runs it as a formula.',
      `Read ${EXPORT_PAGE_SIZE} cases at a time, each page a list read of the organization (docs/list-filters.md): the first is refused with 429 as a list read is, before anything is sent; the later ones wait for their share instead, so a long export goes at the pace the organization's budget of database time allows. The list's \`cursor\` and \`limit\` are refused (422): an export has no pages.`,
    ],
    success: {
      status: 200,
      description: 'The cases as CSV.',
      mediaType: 'text/csv',
      schema: { type: 'string', description: 'The header record, then one record per case.' },
      headers: { 'Content-Disposition': { description: '`attachment; filename="cases.csv"`', schema: { type: 'string' } } },
    },
    errors: { 422: 'An unknown query parameter, `cursor` or `limit`, or a value that is not valid for it (`validation_errors` names each).', 429: LIST_READS_REFUSED },
  })
  async export(@Principal() caller: Caller, @Query() query: ExportCasesRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    refusePaging(query as Record<string, unknown>, '', 'invalid query string');
    const csv = caseCsv(query.columns === undefined ? CASE_COLUMN_NAMES : columnList(query.columns)!);
    const pages = await this.queries.walk(caller.organizationId, adminListFilter(query, callerUserId(caller)), EXPORT_PAGE_SIZE, () => reply.raw.destroyed);
    const assignments = (page: CaseProps[]) => (csv.needsAssignments ? this.work.assignments(caller.organizationId, page) : Promise.resolve([]));
    // Pulled a page at a time as the reply's socket drains: never more than a page ahead of the client.
    const records = Readable.from((async function* records() {
      yield csv.header;
      for await (const page of pages) yield csv.rows(page, await assignments(page));
    })(), { objectMode: false });
    return new StreamableFile(records, { type: CSV_CONTENT_TYPE, disposition: 'attachment; filename="cases.csv"' });
  }

  @Get(':caseId')
  @Header('content-type', JSON_CONTENT_TYPE)
  @ApiEndpoint({
    operationId: 'getAdminCase',
    summary: 'Get a case of the organization',
    description: 'The case as the cases API shows it, plus its `source_type`, who works it (`assignee`, `team`, `priority`) and `watchers` (how many people watch it), whatever workflow it belongs to.',
    success: { status: 200, description: 'The case.', schema: wrapped('case', schemaRef('CaseWithSource')) },
    errors: { 404: CASE_NOT_FOUND },
  })
  async get(@Principal() caller: Caller, @CaseId() caseId: number) {
    return `{"case":${adminCaseJson(await this.work.shown(caller.organizationId, caseId))}}`;
  }

  @Patch(':caseId')
  @RequiresRole('agent')
  @Header('content-type', JSON_CONTENT_TYPE)
  @ApiEndpoint({
    operationId: 'workCase',
    summary: 'Work a case: assign it, change its priority, status or attributes',
    description: [
      'Changes every key given together, in one transaction, or nothing: the assignee and team (`assigned` on the timeline, `case.assigned` to subscriptions), the priority (`priority_changed`), the attributes by a JSON merge patch (RFC 7396; `attributes_changed`), and the status exactly as the cases API\'s PATCH moves it (declared on the case\'s workflow version, never `Error`; recorded; the new status\'s run starts and counts toward usage). Each change is recorded with the person (or admin token) who made it, and audited (`case.changed`).',
    ],
    success: { status: 200, description: 'The case after the change.', schema: wrapped('case', schemaRef('CaseWithSource')) },
    errors: {
      404: CASE_NOT_FOUND,
      422: 'Nothing changed: no key, an unsupported key or a value of the wrong type; an assignee who is not an active user of the organization with a role of `agent` or stronger; a team the organization does not have; an assignee who is not a member of the team given with them; a status the workflow does not declare, or `Error`; attributes that, merged, the workflow\'s schema refuses (`validation_errors` at `/attributes/...`).',
    },
  })
  async change(@Principal() caller: Caller, @ChangeAuthor() by: Author, @CaseId() caseId: number, @Body() body: WorkCaseRequest) {
    const given = (key: keyof WorkCaseRequest) => Object.hasOwn(body ?? {}, key);
    if (!(['assignee_id', 'team_id', 'priority', 'status', 'attributes'] as const).some(given)) {
      throw new InvalidRequestError('nothing to change: give at least one of assignee_id, team_id, priority, status, attributes');
    }
    const worked = await this.work.change(caller.organizationId, caseId, {
      assigneeId: body.assignee_id,
      teamId: body.team_id,
      priority: body.priority,
      status: body.status,
      attributes: body.attributes,
    }, by);
    return `{"case":${adminCaseJson(await this.work.shown(caller.organizationId, worked.case.id))}}`;
  }

  @Get(':caseId/attachments/:attachmentId')
  @ApiEndpoint({
    operationId: 'getAdminCaseAttachment',
    summary: 'Download a file of a case of the organization',
    description: 'As the cases API\'s attachment download, whatever workflow the case belongs to.',
    success: ATTACHMENT_DOWNLOAD,
    errors: { 404: 'The case or the attachment does not exist, or belongs to another organization.' },
  })
  async attachment(@Principal() caller: Caller, @CaseId() caseId: number, @AttachmentId() attachmentId: string, @Res({ passthrough: true }) reply: FastifyReply) {
    return sendAttachment(reply, await this.queries.attachment(caller.organizationId, caseId, attachmentId));
  }

  @Get(':caseId/timeline')
  @ApiEndpoint({
    operationId: 'getCaseTimeline',
    summary: 'Get a case\'s timeline',
    description: 'Everything that happened to the case, oldest first: its creation (with source and mode), every status change (from, to, by whom: API token, automation or engine), the runs it superseded and the replies it received, a page at a time: pass `next_cursor` back as `cursor`; it is null on the last page. Events are only ever added at the end, so pages never repeat or skip one.',
    success: {
      status: 200,
      description: 'One page of events.',
      schema: pageOf('events', 'TimelineEvent'),
    },
    errors: { 404: CASE_NOT_FOUND, 422: 'An unknown query parameter, or a value that is not valid for it (`validation_errors` names each).' },
  })
  async timeline(@Principal() caller: Caller, @CaseId() caseId: number, @Query() query: TimelineRequest) {
    const limit = query.limit === undefined ? DEFAULT_TIMELINE_PAGE_SIZE : Number(query.limit);
    const page = await this.queries.timeline(caller.organizationId, caseId, { cursor: query.cursor, limit });
    return { events: page.events, next_cursor: page.nextCursor };
  }

  @Get(':caseId/runs')
  @ApiEndpoint({
    operationId: 'listCaseRuns',
    summary: 'List a case\'s runs with their traces',
    description: 'The runs of the case\'s automation, oldest first, each with the steps it executed: where in the definition (`path`), what came of it, when, how many tries, the HTTP status its request got and its error, secret values masked. A page at a time: pass `next_cursor` back as `after`; it is null on the last page. Runs are only ever added at the end, so pages never repeat or skip one.',
    success: {
      status: 200,
      description: 'One page of runs.',
      schema: object({
        runs: { type: 'array', items: schemaRef('Run') },
        next_cursor: { type: ['string', 'null'], description: 'Pass as `after` for the next page; null on the last page.' },
      }),
    },
    errors: { 404: CASE_NOT_FOUND, 422: 'An unknown query parameter, or a value that is not valid for it (`validation_errors` names each).' },
  })
  async runs(@Principal() caller: Caller, @CaseId() caseId: number, @Query() query: CaseRunsRequest) {
    const limit = query.limit === undefined ? DEFAULT_RUNS_PAGE_SIZE : Number(query.limit);
    const page = await this.queries.runs(caller.organizationId, caseId, { after: query.after, limit });
    return { runs: page.runs.map(runJson), next_cursor: page.nextCursor };
  }
}

import { Readable } from 'node:stream';
import { RequiresRole } from '../../../shared/http/route-credentials.js';
import { Controller, Get, Header, Param, Query, Res, StreamableFile } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiEndpoint } from '../../../shared/http/api-endpoint.decorator.js';
import { IdParamPipe } from '../../../shared/http/id-param.pipe.js';
import { ATTACHMENT_DOWNLOAD, AttachmentId, sendAttachment } from '../../../shared/http/attachment-download.js';
import { object, pageOf, schemaRef, wrapped } from '../../../shared/http/openapi-schema.js';
import type { Principal as Caller } from '../../tokens/domain/principal.js';
import { Principal } from '../../tokens/http/principal.decorator.js';
import { CaseQueriesService } from '../application/case-queries.service.js';
import { caseJson, casePageJson, JSON_CONTENT_TYPE, runJson } from './case.response.js';
import { CASE_COLUMN_NAMES, caseCsv, columnList } from './case-csv.js';
import { CaseRunsRequest, ExportCasesRequest, LIST_READS_REFUSED, ListCasesRequest, TimelineRequest } from './list-cases.request.js';
import { adminListFilter, refusePaging } from './list-filters.js';

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
  constructor(private readonly queries: CaseQueriesService) {}

  @Get()
  @Header('content-type', JSON_CONTENT_TYPE)
  @ApiEndpoint({
    operationId: 'listCases',
    summary: 'List cases',
    description: 'The organization\'s cases, newest first (by `created_at`, then `id`), filtered by every parameter given (the same filters as the cases API\'s list, plus `workflow_id` and `source`), with how each came in (`source_type`). Pages are stable under concurrent inserts: pass `next_cursor` back as `cursor`; it is null on the last page. Any other query parameter is a 422.',
    success: {
      status: 200,
      description: 'One page of cases.',
      schema: pageOf('cases', 'CaseWithSource'),
    },
    errors: { 422: 'An unknown query parameter, or a value that is not valid for it (`validation_errors` names each).', 429: LIST_READS_REFUSED },
  })
  async list(@Principal() caller: Caller, @Query() query: ListCasesRequest) {
    const page = await this.queries.list(caller.organizationId, {
      ...adminListFilter(query),
      limit: query.limit === undefined ? DEFAULT_PAGE_SIZE : Number(query.limit),
      cursor: query.cursor,
    });
    return casePageJson(page, true);
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
    const pages = await this.queries.walk(caller.organizationId, adminListFilter(query), EXPORT_PAGE_SIZE, () => reply.raw.destroyed);
    // Pulled a page at a time as the reply's socket drains: never more than a page ahead of the client.
    const records = Readable.from((async function* records() {
      yield csv.header;
      for await (const page of pages) yield csv.rows(page);
    })(), { objectMode: false });
    return new StreamableFile(records, { type: CSV_CONTENT_TYPE, disposition: 'attachment; filename="cases.csv"' });
  }

  @Get(':caseId')
  @Header('content-type', JSON_CONTENT_TYPE)
  @ApiEndpoint({
    operationId: 'getAdminCase',
    summary: 'Get a case of the organization',
    description: 'The case as the cases API shows it, plus its `source_type`, whatever workflow it belongs to.',
    success: { status: 200, description: 'The case.', schema: wrapped('case', schemaRef('CaseWithSource')) },
    errors: { 404: CASE_NOT_FOUND },
  })
  async get(@Principal() caller: Caller, @CaseId() caseId: number) {
    return `{"case":${caseJson(await this.queries.get(caller.organizationId, caseId), true)}}`;
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

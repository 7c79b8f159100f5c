import { RequiresRole } from '../../../shared/http/route-credentials.js';
import { InvalidRequestError } from '../../../shared/errors/app-error.js';
import { Controller, Get, Header, Param, Query, Res } from '@nestjs/common';
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
import { CaseRunsRequest, LIST_READS_REFUSED, ListCasesRequest, listFilter, TimelineRequest } from './list-cases.request.js';

const DEFAULT_PAGE_SIZE = 25;
const DEFAULT_TIMELINE_PAGE_SIZE = 100;
const DEFAULT_RUNS_PAGE_SIZE = 100;
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
    description: 'The organization\'s cases, newest first (by `created_at`, then `id`), filtered by every parameter given (the same filters as the cases API\'s list, plus `workflow_id`, `source` and `watching`), with how each came in (`source_type`) and how many people watch it (`watchers`). Pages are stable under concurrent inserts: pass `next_cursor` back as `cursor`; it is null on the last page. Any other query parameter is a 422.',
    success: {
      status: 200,
      description: 'One page of cases.',
      schema: pageOf('cases', 'CaseWithSource'),
    },
    errors: { 422: 'An unknown query parameter, or a value that is not valid for it (`validation_errors` names each).', 429: LIST_READS_REFUSED },
  })
  async list(@Principal() caller: Caller, @Query() query: ListCasesRequest) {
    if (query.watching && caller.kind !== 'user') throw new InvalidRequestError('watching=true lists the cases the signed-in person watches; an admin token is no person');
    const page = await this.queries.list(caller.organizationId, {
      ...listFilter(query, query.limit, DEFAULT_PAGE_SIZE),
      workflowId: query.workflow_id === undefined ? undefined : Number(query.workflow_id),
      source: query.source,
      watchedBy: query.watching && caller.kind === 'user' ? caller.userId : undefined,
      withWatchers: true,
    });
    return casePageJson(page, true);
  }

  @Get(':caseId')
  @Header('content-type', JSON_CONTENT_TYPE)
  @ApiEndpoint({
    operationId: 'getAdminCase',
    summary: 'Get a case of the organization',
    description: 'The case as the cases API shows it, plus its `source_type` and `watchers` (how many people watch it), whatever workflow it belongs to.',
    success: { status: 200, description: 'The case.', schema: wrapped('case', schemaRef('CaseWithSource')) },
    errors: { 404: CASE_NOT_FOUND },
  })
  async get(@Principal() caller: Caller, @CaseId() caseId: number) {
    return `{"case":${caseJson(await this.queries.get(caller.organizationId, caseId, true), true)}}`;
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

import { Body, Controller, Get, Header, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBody, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiEndpoint } from '../../../shared/http/api-endpoint.decorator.js';
import { IdParamPipe } from '../../../shared/http/id-param.pipe.js';
import { jsonText } from '../../../shared/http/json-body-parser.js';
import { headerRef, object, pageOf, schemaRef, wrapped } from '../../../shared/http/openapi-schema.js';
import { ATTACHMENT_DOWNLOAD, AttachmentId, sendAttachment } from '../../../shared/http/attachment-download.js';
import { RequiresToken } from '../../tokens/http/bearer-token.check.js';
import type { TokenPrincipal as Caller } from '../../tokens/domain/principal.js';
import { Principal } from '../../tokens/http/principal.decorator.js';
import { CaseQueriesService } from '../application/case-queries.service.js';
import { ChangeCaseStatusService } from '../application/change-case-status.service.js';
import { CreateCaseService } from '../application/create-case.service.js';
import { GetCaseService } from '../application/get-case.service.js';
import { WorkflowIntake } from '../application/workflow-intake.js';
import { apiCaseCommand } from './case-commands.js';
import { casePageJson, caseResponse, JSON_CONTENT_TYPE } from './case.response.js';
import { ChangeStatusRequest } from './change-status.request.js';
import { CreateCaseRequest } from './create-case.request.js';
import { IdempotencyKey } from './idempotency-key.decorator.js';
import { CaseChangesRequest, LIST_READS_REFUSED, listFilter, ListWorkflowCasesRequest } from './list-cases.request.js';

const WorkflowId = () => Param('workflowId', new IdParamPipe('workflow'));
const CaseId = () => Param('caseId', new IdParamPipe('case'));
const caseAnswer = wrapped('case', schemaRef('Case'));
const DEFAULT_PAGE_SIZE = 50;
const WORKFLOW_NOT_FOUND = 'The workflow does not exist or belongs to another organization.';
const CASE_NOT_FOUND = 'The workflow or the case does not exist, belongs to another organization, or the case belongs to another workflow.';

@Controller('api/external/v1/workflows/:workflowId/cases')
@RequiresToken('api')
@ApiTags('Cases')
@ApiSecurity('apiToken')
export class CasesController {
  constructor(
    private readonly createCase: CreateCaseService,
    private readonly getCase: GetCaseService,
    private readonly changeStatus: ChangeCaseStatusService,
    private readonly intake: WorkflowIntake,
    private readonly queries: CaseQueriesService,
  ) {}

  @Post()
  @Header('content-type', JSON_CONTENT_TYPE)
  @ApiEndpoint({
    operationId: 'createCase',
    summary: 'Create a case',
    description: [
      'Creates a case on a published direct workflow of the caller\'s organization, on its latest published version: status `Open`, outcome null. The workflow\'s `Open` run (if any) starts asynchronously, after the answer.',
      'Only the top-level keys `subject`, `attributes` and `mode` are accepted: any other key is a 422 before anything is created. `attributes` is validated against the workflow\'s attribute schema (required attributes present and not null, declared types, enums and formats; undeclared keys are kept, except on workflows with `sensitive_data`) and stored exactly as sent.',
      'The body is JSON of at most 1 MB (1,048,576 bytes) nested at most 64 levels deep. Send an `Idempotency-Key` to make retries safe: a replay answers 201 with the original case and `Idempotent-Replayed: true`.',
    ],
    // Read by @IdempotencyKey(), which the document cannot see.
    parameters: [{ name: 'Idempotency-Key', in: 'header', required: false }],
    success: {
      status: 201,
      description: 'The case was created (or, for a replayed `Idempotency-Key`, created earlier).',
      schema: caseAnswer,
      headers: { 'Idempotent-Replayed': headerRef('IdempotentReplayed') },
    },
    errors: {
      404: 'The workflow does not exist or belongs to another organization.',
      422: 'Nothing was created: an unsupported top-level key, `attributes` not an object, `mode` not `live`/`test`, `subject` over 1,000 characters; a body that is not valid JSON, empty, nested deeper than 64 levels, not a JSON object, or holds text that cannot be stored (U+0000); the workflow is not published or its case source is not `direct`; `attributes_validation_failed` with `validation_errors` (including a number in `attributes` too long written out, see `CreateCaseRequest`); an `Idempotency-Key` that is malformed or was used within 24 hours with a different body or workflow.',
    },
  })
  @ApiBody({ type: CreateCaseRequest, required: false, description: 'No body, or `{}`, is a case with the default subject and no attributes.' })
  async create(
    @Principal() caller: Caller,
    @WorkflowId() workflowId: number,
    @Body() body: CreateCaseRequest,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @IdempotencyKey() idempotencyKey?: string,
  ) {
    const workflow = await this.intake.forApi(caller.organizationId, workflowId);
    const result = await this.createCase.execute(apiCaseCommand(caller, workflow, body, jsonText(request), idempotencyKey));
    reply.status(201);
    if (result.replayed) reply.header('idempotent-replayed', 'true');
    return caseResponse(result.case);
  }

  @Get()
  @Header('content-type', JSON_CONTENT_TYPE)
  @ApiEndpoint({
    operationId: 'listWorkflowCases',
    summary: 'List a workflow\'s cases',
    description: [
      'The workflow\'s cases, newest first (by `created_at`, then `id`), filtered by every parameter given; any other query parameter is a 422. Each case is shown as `getCase` shows it.',
      'Paging is by keyset: pass `next_cursor` back as `cursor` (with the same filters) until it is null. A case that existed when the first page was read is never repeated or skipped, whatever is created meanwhile.',
    ],
    success: {
      status: 200,
      description: 'One page of cases.',
      schema: pageOf('cases', 'Case'),
    },
    errors: {
      404: WORKFLOW_NOT_FOUND,
      422: 'An unknown query parameter, or a value that is not valid for it (`validation_errors` names each): a status list, mode, timestamp, `attributes` object, limit (1 to 200) or cursor.',
      429: LIST_READS_REFUSED,
    },
  })
  async list(@Principal() caller: Caller, @WorkflowId() workflowId: number, @Query() query: ListWorkflowCasesRequest) {
    return casePageJson(await this.queries.listWorkflow(caller.organizationId, workflowId, listFilter(query, query.limit, DEFAULT_PAGE_SIZE)));
  }

  @Get('changes')
  @Header('content-type', JSON_CONTENT_TYPE)
  @ApiEndpoint({
    operationId: 'listCaseChanges',
    summary: 'Follow the changes of a workflow\'s cases',
    description: [
      'The change feed for incremental sync: the cases changed after the cursor `after`, in the order their changes committed, each case at most once per page and at its state when the page was read. Without `after` the feed starts at the oldest change still kept.',
      'Store `next_cursor` and call again (until `cases` is empty, then from time to time): every change is delivered, including those of transactions still in flight when an earlier page was read. A cursor is a commit-order position, not a timestamp: a page reaches only changes of transactions older than every transaction still running, so a long transaction makes the feed wait, never skip. `next_cursor` is always present; it equals `after` when nothing changed.',
    ],
    success: {
      status: 200,
      description: 'One page of changed cases.',
      schema: object({
        cases: { type: 'array', items: schemaRef('Case') },
        next_cursor: { type: 'string', description: 'Pass as `after` for the next page.' },
      }),
    },
    errors: {
      404: WORKFLOW_NOT_FOUND,
      410: 'The cursor is older than what retention keeps: a case changed after it has since been purged. List the cases again and follow the feed from its start.',
      422: 'An unknown query parameter, an `after` that is not a `next_cursor` of this feed, or a limit outside 1 to 200.',
      429: LIST_READS_REFUSED,
    },
  })
  async changes(@Principal() caller: Caller, @WorkflowId() workflowId: number, @Query() query: CaseChangesRequest) {
    const limit = query.limit === undefined ? DEFAULT_PAGE_SIZE : Number(query.limit);
    return casePageJson(await this.queries.changes(caller.organizationId, workflowId, query.after, limit));
  }

  @Get(':caseId')
  @Header('content-type', JSON_CONTENT_TYPE)
  @ApiEndpoint({
    operationId: 'getCase',
    summary: 'Get a case',
    description: 'The case\'s current status, outcome and attributes, as the latest automation step left them.',
    success: { status: 200, description: 'The case.', schema: caseAnswer },
    errors: { 404: CASE_NOT_FOUND },
  })
  async get(@Principal() caller: Caller, @WorkflowId() workflowId: number, @CaseId() caseId: number) {
    return caseResponse(await this.getCase.execute(caller, workflowId, caseId));
  }

  @Get(':caseId/attachments/:attachmentId')
  @ApiEndpoint({
    operationId: 'getCaseAttachment',
    summary: 'Download a file of a case',
    description: 'A file the case received (an attachment of its email, or of a reply added to it), by the id its `email.attachments` (or the `email_received` event) gives. Sent as a download: `Content-Disposition: attachment`, `X-Content-Type-Options: nosniff`.',
    success: ATTACHMENT_DOWNLOAD,
    errors: { 404: 'The workflow, the case or the attachment does not exist, belongs to another organization, or the case belongs to another workflow.' },
  })
  async attachment(@Principal() caller: Caller, @WorkflowId() workflowId: number, @CaseId() caseId: number, @AttachmentId() attachmentId: string, @Res({ passthrough: true }) reply: FastifyReply) {
    return sendAttachment(reply, await this.queries.attachment(caller.organizationId, caseId, attachmentId, workflowId));
  }

  @Patch(':caseId')
  @Header('content-type', JSON_CONTENT_TYPE)
  @ApiEndpoint({
    operationId: 'changeCaseStatus',
    summary: 'Change a case\'s status',
    description: [
      'Moves the case to `status`, which must be declared on the workflow version the case runs on and may not be `Error` (only the engine parks a case there). `status` is the only accepted key: any other key is a 422.',
      'The move is recorded on the timeline and starts the run attached to the new status (counted toward usage); a run still going in the previous status is superseded. PATCH to the current status re-enters it: it is recorded and that status\'s run starts again. `Closed` sets the outcome to the workflow\'s `default_outcome` (`Resolved` when none); any other status sets it to null. This is also how a case in `Error` is recovered.',
    ],
    success: { status: 200, description: 'The case after the move.', schema: caseAnswer },
    errors: {
      404: CASE_NOT_FOUND,
      422: 'Nothing changed: `status` missing, not a string, or not 1 to 200 characters; an unsupported key; a body that is not a valid JSON object; a status the workflow does not declare; `Error`.',
    },
  })
  async update(@Principal() caller: Caller, @WorkflowId() workflowId: number, @CaseId() caseId: number, @Body() body: ChangeStatusRequest) {
    return caseResponse(await this.changeStatus.execute(caller, workflowId, caseId, body.status));
  }
}

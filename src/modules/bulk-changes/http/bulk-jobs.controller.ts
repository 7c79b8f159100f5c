import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiSecurity, ApiTags } from '@nestjs/swagger';
import { InvalidRequestError } from '../../../shared/errors/app-error.js';
import { ApiEndpoint } from '../../../shared/http/api-endpoint.decorator.js';
import { IdParamPipe } from '../../../shared/http/id-param.pipe.js';
import { schemaRef, wrapped } from '../../../shared/http/openapi-schema.js';
import { RequiresRole } from '../../../shared/http/route-credentials.js';
import type { ChangeAuthor as Author } from '../../audit/domain/audit-entry.js';
import { ChangeAuthor } from '../../audit/http/change-author.decorator.js';
import { LIST_READS_REFUSED } from '../../cases/http/list-cases.request.js';
import { bodyListFilters, callerUserId, readingBodyFilters } from '../../cases/http/list-filters.js';
import type { Principal as Caller } from '../../tokens/domain/principal.js';
import { Principal } from '../../tokens/http/principal.decorator.js';
import { BulkJobsService, LISTED_FAILURES } from '../application/bulk-jobs.service.js';
import { type BulkFailure, type BulkJob, MAX_BULK_CASES, MAX_UNFINISHED_BULK_JOBS } from '../domain/bulk-job.js';
import { readBulkChange } from './bulk-change.js';
import { BulkChangeRequest } from './bulk-change.request.js';

@Controller('api/admin/v1')
@RequiresRole('agent')
@ApiTags('Admin cases')
@ApiSecurity('adminToken')
export class BulkJobsController {
  constructor(private readonly jobs: BulkJobsService) {}

  @Post('cases/bulk')
  @HttpCode(202)
  @ApiEndpoint({
    operationId: 'bulkChangeCases',
    summary: 'Change many cases at once',
    description: [
      `Accepts a job that changes every case of \`filter\` (fixed now: cases that come in later are not swept in) or of \`case_ids\`, at most ${MAX_BULK_CASES.toLocaleString('en')}. Each case changes as its own PATCH would (its timeline row by the caller, its event, its run, its audit entry); one that cannot (an undeclared status on its workflow, gone) is counted in \`failed\` with its reason.`,
      'The job is kept in Postgres with its cases and survives a restart of every process: each case\'s change commits with its mark in the job, so it finishes once and no case changes twice. Follow it with `GET /api/admin/v1/jobs/{id}`.',
    ],
    success: { status: 202, description: 'The job, queued.', schema: wrapped('job', schemaRef('BulkJob')) },
    errors: {
      422: `Neither or both of \`filter\` and \`case_ids\`; a filter the case list refuses (below \`/filter\`); a change that is not valid (below \`/change\`); more than ${MAX_BULK_CASES.toLocaleString('en')} cases, or none; or ${MAX_UNFINISHED_BULK_JOBS} jobs of the organization already under way.`,
      429: LIST_READS_REFUSED,
    },
  })
  async create(@Principal() caller: Caller, @ChangeAuthor() by: Author, @Body() body: BulkChangeRequest) {
    if ((body.filter === undefined) === (body.case_ids === undefined)) {
      throw new InvalidRequestError('invalid request body', [{ path: '', error: 'give either filter or case_ids' }]);
    }
    const change = readBulkChange(body.change);
    const selection = body.case_ids !== undefined ? { caseIds: body.case_ids } : { filter: (await bodyListFilters(body.filter, '/filter', callerUserId(caller))).filter };
    return { job: jobJson(await readingBodyFilters('/filter', () => this.jobs.accept(caller.organizationId, by, selection, change)), []) };
  }

  @Get('jobs/:jobId')
  @ApiEndpoint({
    operationId: 'getBulkJob',
    summary: 'Follow a bulk change',
    description: `The job's progress: \`done\` cases changed, \`failed\` ones that could not be, and the first ${LISTED_FAILURES} of those by case id with why.`,
    success: { status: 200, description: 'The job.', schema: wrapped('job', schemaRef('BulkJob')) },
    errors: { 404: 'No such job in the organization.' },
  })
  async get(@Principal() caller: Caller, @Param('jobId', new IdParamPipe('job')) id: number) {
    const { job, failures } = await this.jobs.get(caller.organizationId, id);
    return { job: jobJson(job, failures) };
  }
}

function jobJson(job: BulkJob, failures: BulkFailure[]): Record<string, unknown> {
  return {
    id: job.id,
    total: job.total,
    done: job.done,
    failed: job.failed,
    state: job.state,
    change: job.change,
    created_at: job.createdAt.toISOString(),
    finished_at: job.finishedAt?.toISOString() ?? null,
    failures: failures.map((f) => ({ case_id: f.caseId, reason: f.reason })),
  };
}

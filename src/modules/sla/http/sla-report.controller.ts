import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiSecurity, ApiTags, ApiPropertyOptional, ApiProperty } from '@nestjs/swagger';
import { IsOptional, Matches, ValidateBy } from 'class-validator';
import type { FastifyReply } from 'fastify';
import { InvalidRequestError } from '../../../shared/errors/app-error.js';
import { ApiEndpoint } from '../../../shared/http/api-endpoint.decorator.js';
import { isIsoTimestamp } from '../../../shared/http/iso-timestamp.js';
import { resourceId, schemaRef, wrapped } from '../../../shared/http/openapi-schema.js';
import { RequiresRole } from '../../../shared/http/route-credentials.js';
import type { Principal as Caller } from '../../tokens/domain/principal.js';
import { Principal } from '../../tokens/http/principal.decorator.js';
import { MAX_REPORT_CASES, SlaReportService } from '../application/sla-report.service.js';

const IsTimestamp = (name: string) => ValidateBy({
  name: 'isIsoTimestamp',
  validator: {
    validate: (value: unknown) => typeof value === 'string' && isIsoTimestamp(value),
    defaultMessage: () => `${name} must be an ISO 8601 timestamp with its offset, such as 2026-01-31T09:30:00Z`,
  },
});

export class SlaReportRequest {
  @IsTimestamp('from')
  @ApiProperty({ type: 'string', format: 'date-time', description: 'The cases created from this time on.' })
  from!: string;

  @IsTimestamp('to')
  @ApiProperty({ type: 'string', format: 'date-time', description: 'The cases created before this time.' })
  to!: string;

  @IsOptional() @Matches(/^[1-9][0-9]{0,15}$/, { message: 'workflow_id must be a positive integer' })
  @ApiPropertyOptional({ ...resourceId('Workflow id'), description: 'Only this workflow\'s cases; every workflow with an SLA policy otherwise.' })
  workflow_id?: string;
}

@Controller('api/admin/v1/reports')
@RequiresRole('viewer')
@ApiTags('Reports')
@ApiSecurity('adminToken')
export class SlaReportController {
  constructor(private readonly reports: SlaReportService) {}

  @Get('sla')
  @ApiEndpoint({
    operationId: 'getSlaReport',
    summary: 'Get the SLA report',
    description: [
      'Per clock and priority, over the live cases created in [`from`, `to`) under a workflow\'s SLA policy (created after it was set, or whose priority changed since): the clock periods measured (ended met or breached; one still running or paused is not), met, breached, the share met, and the median and 90th percentile of the business time from the period\'s start to its reply or close (nearest rank, in seconds; null when none got one).',
      `The clocks are computed now from each case's history under its current priority, as the admin case shows them. At most ${MAX_REPORT_CASES.toLocaleString('en')} cases per report, read as the organization's list reads.`,
    ],
    success: { status: 200, description: 'The report.', schema: wrapped('report', schemaRef('SlaReport')) },
    errors: { 404: 'The workflow does not exist or belongs to another organization', 422: `\`from\` or \`to\` missing or not an ISO 8601 timestamp, \`from\` not before \`to\`, a \`workflow_id\` that is not a positive integer, more than ${MAX_REPORT_CASES.toLocaleString('en')} cases in the range, or an unknown query parameter.` },
  })
  async report(@Principal() caller: Caller, @Query() query: SlaReportRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const [from, to] = [new Date(query.from), new Date(query.to)];
    if (from >= to) throw new InvalidRequestError('from must be before to');
    // A client gone stops the reads: nobody is left to answer.
    const gone = () => reply.raw.destroyed;
    return { report: await this.reports.report(caller.organizationId, from, to, query.workflow_id === undefined ? null : Number(query.workflow_id), gone) };
  }
}

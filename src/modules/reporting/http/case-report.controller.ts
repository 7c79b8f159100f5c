import { RequiresRole } from '../../../shared/http/route-credentials.js';
import { Controller, Get, Query } from '@nestjs/common';
import { ApiSecurity, ApiTags } from '@nestjs/swagger';
import { InvalidRequestError } from '../../../shared/errors/app-error.js';
import { ApiEndpoint } from '../../../shared/http/api-endpoint.decorator.js';
import { schemaRef, wrapped } from '../../../shared/http/openapi-schema.js';
import type { Principal as Caller } from '../../tokens/domain/principal.js';
import { Principal } from '../../tokens/http/principal.decorator.js';
import { CaseReportService } from '../application/case-report.service.js';
import { MAX_INTERVALS, MAX_RANGE_DAYS, readStamp, type ReportInterval, ReportRange, ReportRangeError, type Stamp } from '../domain/report-range.js';
import { CaseReportRequest, MAX_REPORT_WORKFLOWS } from './case-report.request.js';

@Controller('api/admin/v1/reports')
@RequiresRole('viewer')
@ApiTags('Reports')
@ApiSecurity('adminToken')
export class CaseReportController {
  constructor(private readonly reports: CaseReportService) {}

  @Get('cases')
  @ApiEndpoint({
    operationId: 'getCaseReport',
    summary: 'Get the case report',
    description: [
      'Live cases over a range, per interval and in total: created (by source), closed, entering `Error`, reopened (leaving `Closed`), the time from creation to close of the cases closed in the range (p50 and p90, null when none closed), the live cases not `Closed` by status now, and the most frequent run failure messages (at most 10, each cut to 200 characters). Test cases never count.',
      'Figures are kept per UTC hour as cases move and never read from the cases themselves, so retention purges do not change them and a year costs the same as a day. `from` is moved back and `to` forward to whole hours; intervals last exactly 1, 24 or 168 hours from `from` (the last one may be shorter), so days start at the hour of day `from` names in its own offset, and every timestamp of the answer is written in that offset. An offset that is not a whole number of hours starts the intervals at the whole UTC hour before. Time to close is answered from a histogram with buckets 9% wide, as the upper bound of the bucket the percentile falls in.',
    ],
    success: { status: 200, description: 'The report.', schema: wrapped('report', schemaRef('CaseReport')) },
    errors: { 422: `\`from\` or \`to\` not an ISO 8601 date or date-time, \`from\` not before \`to\`, a range over ${MAX_RANGE_DAYS} days or over ${MAX_INTERVALS} intervals, an \`interval\` other than hour, day or week, a \`workflow_id\` that is not a positive integer or more than ${MAX_REPORT_WORKFLOWS} of them, or an unknown query parameter.` },
  })
  async report(@Principal() caller: Caller, @Query() query: CaseReportRequest) {
    const workflowIds = query.workflow_id === undefined ? null : [query.workflow_id].flat().map(Number);
    if (workflowIds && workflowIds.length > MAX_REPORT_WORKFLOWS) throw new InvalidRequestError(`at most ${MAX_REPORT_WORKFLOWS} workflow_id parameters`);
    try {
      const range = ReportRange.of(stamp('from', query.from), stamp('to', query.to), (query.interval ?? 'day') as ReportInterval, new Date());
      return { report: await this.reports.report(caller.organizationId, range, workflowIds && [...new Set(workflowIds)]) };
    } catch (err) {
      if (err instanceof ReportRangeError) throw new InvalidRequestError(err.message);
      throw err;
    }
  }
}

function stamp(name: string, text: string | undefined): Stamp | undefined {
  if (text === undefined) return undefined;
  const read = readStamp(text);
  if (!read) throw new InvalidRequestError(`"${name}" must be an ISO 8601 date or date-time such as 2026-11-01T00:00:00+02:00`);
  return read;
}

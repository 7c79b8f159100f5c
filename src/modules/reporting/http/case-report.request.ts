import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, Length, Matches } from 'class-validator';
import { REPORT_INTERVALS } from '../domain/report-range.js';

const POSITIVE_INTEGER = /^[1-9][0-9]{0,15}$/;
/** At most this many `workflow_id` parameters. */
export const MAX_REPORT_WORKFLOWS = 100;

/** Query string of the case report; every value arrives as text, `workflow_id` as a list when repeated. */
export class CaseReportRequest {
  @IsOptional() @Length(1, 40, { message: 'from must be an ISO 8601 date or date-time' })
  @ApiPropertyOptional({ example: '2026-11-01T00:00:00+02:00', description: 'Start of the range (inclusive), ISO 8601 with or without offset (none: UTC); moved back to a whole hour. Intervals start here, and the answer is written in this offset. Default: 30 days before `to`.' })
  from?: string;

  @IsOptional() @Length(1, 40, { message: 'to must be an ISO 8601 date or date-time' })
  @ApiPropertyOptional({ example: '2026-12-01T00:00:00+02:00', description: 'End of the range (exclusive), ISO 8601; moved forward to a whole hour. Default: the end of the current hour.' })
  to?: string;

  @IsOptional() @IsIn(REPORT_INTERVALS)
  @ApiPropertyOptional({ enum: REPORT_INTERVALS, default: 'day', description: 'Length of each interval of the series: 1, 24 or 168 hours from `from`.' })
  interval?: string;

  @IsOptional() @Matches(POSITIVE_INTEGER, { each: true, message: 'workflow_id must be a positive integer' })
  @ApiPropertyOptional({ type: [String], pattern: POSITIVE_INTEGER.source, maxItems: MAX_REPORT_WORKFLOWS, description: `Only these workflows (repeat the parameter for several, at most ${MAX_REPORT_WORKFLOWS}). Default: every workflow of the organization.` })
  workflow_id?: string | string[];
}

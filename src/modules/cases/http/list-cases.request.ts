import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, Length, Matches } from 'class-validator';
import { resourceId } from '../../../shared/http/openapi-schema.js';

const POSITIVE_INTEGER = /^[1-9][0-9]{0,15}$/;
/** The text of an integer from 1 to 100 (documented as that integer: a pattern is for strings only). */
const PAGE_SIZE = /^([1-9][0-9]?|100)$/;

/** Query string of the admin case list; every value arrives as text. */
export class ListCasesRequest {
  @IsOptional() @Matches(POSITIVE_INTEGER, { message: 'workflow_id must be a positive integer' })
  @ApiPropertyOptional({ ...resourceId('Workflow id'), description: 'Only this workflow\'s cases.' })
  workflow_id?: string;

  @IsOptional() @Length(1, 200, { message: 'status must be 1 to 200 characters' })
  @ApiPropertyOptional({ description: 'Only cases in this status.' })
  status?: string;

  @IsOptional() @IsIn(['live', 'test'])
  @ApiPropertyOptional({ enum: ['live', 'test'], description: 'Only live or only test cases.' })
  mode?: string;

  @IsOptional() @IsIn(['API', 'Webhook'])
  @ApiPropertyOptional({ enum: ['API', 'Webhook'], description: 'Only cases that came in this way.' })
  source?: string;

  @IsOptional() @Matches(PAGE_SIZE, { message: 'limit must be an integer from 1 to 100' })
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, default: 25, description: 'Page size.' })
  limit?: string;

  /** The `next_cursor` of the previous page. */
  @IsOptional() @Matches(POSITIVE_INTEGER, { message: 'cursor must be a next_cursor value' })
  @ApiPropertyOptional({ pattern: POSITIVE_INTEGER.source })
  cursor?: string;
}

import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayUnique, IsArray, IsBoolean, IsIn, IsObject, IsOptional, IsString, Length } from 'class-validator';
import { CASE_COLUMN_NAMES } from '../../cases/http/case-csv.js';

export class CreateCaseViewRequest {
  @IsString() @Length(1, 100)
  @ApiProperty({ minLength: 1, maxLength: 100 })
  name: string;

  /** Checked against the case list's own query validation by the controller (nested values are not seen here). */
  @IsObject()
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, description: 'The admin case list\'s query parameters (`GET /api/admin/v1/cases`) as text, such as `{"status": "Open,Triage", "workflow_id": "7"}`, validated as the list validates them (422 with `validation_errors` below `/filters`); `cursor` and `limit` are refused.' })
  filters: Record<string, unknown>;

  @IsOptional() @IsArray() @ArrayMaxSize(CASE_COLUMN_NAMES.length) @ArrayUnique() @IsIn(CASE_COLUMN_NAMES, { each: true })
  @ApiPropertyOptional({ type: 'string', isArray: true, enum: CASE_COLUMN_NAMES, description: 'The columns shown (and exported), in order; all of them unless given.' })
  columns?: string[];

  @IsOptional() @IsBoolean()
  @ApiPropertyOptional({ default: false, description: 'Shown to everyone of the organization; saving or changing a shared view takes an admin (403 otherwise). A view saved with an admin token must be shared.' })
  shared?: boolean;
}

/** Any keys of a new view, checked the same way; an empty body changes nothing. */
export class UpdateCaseViewRequest extends PartialType(CreateCaseViewRequest) {}

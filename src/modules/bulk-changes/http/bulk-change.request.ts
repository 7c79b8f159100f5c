import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsInt, IsObject, IsOptional, Max, Min } from 'class-validator';
import { MAX_BULK_CASES } from '../domain/bulk-job.js';

/** `filter` or `case_ids`, and `change`; what each holds is checked by the controller (nested values are not seen here). */
export class BulkChangeRequest {
  @IsOptional() @IsObject()
  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' }, description: 'The admin case list\'s query parameters as text (`{"status": "Open", "workflow_id": "7"}`), validated as the list validates them (422 below `/filter`; `cursor` and `limit` are refused): every case they match as the job is accepted. `{}` is every case of the organization.' })
  filter?: Record<string, unknown>;

  @IsOptional() @IsArray() @ArrayMinSize(1) @ArrayMaxSize(MAX_BULK_CASES) @IsInt({ each: true }) @Min(1, { each: true }) @Max(Number.MAX_SAFE_INTEGER, { each: true })
  @ApiPropertyOptional({ type: 'integer', isArray: true, minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: `These cases (1 to ${MAX_BULK_CASES.toLocaleString('en')} ids; repeats count once). One that does not exist in the organization is counted in \`failed\`.` })
  case_ids?: number[];

  @IsObject()
  @ApiProperty({
    type: 'object',
    description: 'What to change on every case, as a case\'s PATCH (`PATCH /api/admin/v1/cases/{case_id}`) would: `status` (a declared status, never `Error`), `assignee_id`, `team_id` (an id or null), `priority` (`low`, `normal`, `high`, `urgent`); at least one of them.',
    properties: {
      status: { type: 'string', minLength: 1, maxLength: 200 },
      assignee_id: { type: ['integer', 'null'], minimum: 1 },
      team_id: { type: ['integer', 'null'], minimum: 1 },
      priority: { type: 'string', enum: ['low', 'normal', 'high', 'urgent'] },
    },
  } as never)
  change: Record<string, unknown>;
}

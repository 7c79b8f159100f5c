import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsIn, IsInt, IsOptional, IsUrl, Max, Min } from 'class-validator';
import { LIFECYCLE_EVENT_TYPES, type LifecycleEventType } from '../../cases/domain/case-lifecycle.js';

export class CreateSubscriptionRequest {
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] }, { message: 'url must be an http or https URL' })
  @ApiProperty({ format: 'uri', pattern: '^[hH][tT][tT][pP][sS]?://', description: 'An `http` or `https` URL.' })
  url: string;

  @IsArray() @ArrayMinSize(1) @ArrayUnique() @IsIn(LIFECYCLE_EVENT_TYPES, { each: true })
  @ApiProperty({ type: 'string', isArray: true, enum: LIFECYCLE_EVENT_TYPES })
  events: LifecycleEventType[];

  /** Only these workflows' cases; all of the organization's when absent. */
  @IsOptional() @IsArray() @ArrayMinSize(1) @ArrayMaxSize(1000) @ArrayUnique() @IsInt({ each: true }) @Min(1, { each: true }) @Max(Number.MAX_SAFE_INTEGER, { each: true })
  @ApiPropertyOptional({ type: 'integer', isArray: true, minimum: 1, maximum: Number.MAX_SAFE_INTEGER })
  workflow_ids?: number[];
}

import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsIn, IsInt, Max, Min } from 'class-validator';
import { LINK_TYPES, type LinkType } from '../domain/case-link.js';

@ApiSchema({ description: '`case_id` and `type` are the only accepted keys.' })
export class LinkCaseRequest {
  @IsInt() @Min(1) @Max(Number.MAX_SAFE_INTEGER)
  @ApiProperty({ type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'The other case, of the same organization.' })
  case_id: number;

  @IsIn(LINK_TYPES)
  @ApiProperty({ type: 'string', enum: LINK_TYPES, description: 'This case relates to, duplicates or blocks the other.' })
  type: LinkType;
}

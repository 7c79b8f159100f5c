import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';

@ApiSchema({ description: '`into` is the only accepted key.' })
export class MergeCaseRequest {
  /** The case to merge into: a case of the same workflow. */
  @IsInt() @Min(1) @Max(Number.MAX_SAFE_INTEGER)
  @ApiProperty({ type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'The id of the case to merge into, of the same workflow.' })
  into: number;
}

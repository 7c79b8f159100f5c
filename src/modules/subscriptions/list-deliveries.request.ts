import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, Matches } from 'class-validator';

export class ListDeliveriesRequest {
  @IsOptional() @Matches(/^([1-9][0-9]{0,2}|1000)$/, { message: 'limit must be an integer from 1 to 1000' })
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 1000, default: 100, description: 'How many attempts.' })
  limit?: string;
}

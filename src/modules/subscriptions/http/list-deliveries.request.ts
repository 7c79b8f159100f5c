import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, Matches } from 'class-validator';

/** The text of an integer from 1 to 1000 (documented as that integer: a pattern is for strings only). */
const DELIVERY_COUNT = /^([1-9][0-9]{0,2}|1000)$/;

export class ListDeliveriesRequest {
  @IsOptional() @Matches(DELIVERY_COUNT, { message: 'limit must be an integer from 1 to 1000' })
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 1000, default: 100, description: 'How many attempts.' })
  limit?: string;
}

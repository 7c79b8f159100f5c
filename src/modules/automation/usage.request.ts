import { IsISO8601, IsOptional } from 'class-validator';

export class UsageRequest {
  /** Start of the period (inclusive), ISO 8601; default: the first day of the current month, UTC. */
  @IsOptional() @IsISO8601({ strict: true })
  from?: string;

  /** End of the period (exclusive), ISO 8601; default: now. */
  @IsOptional() @IsISO8601({ strict: true })
  to?: string;
}

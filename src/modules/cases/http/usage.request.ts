import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsISO8601, IsOptional } from 'class-validator';

export class UsageRequest {
  @IsOptional() @IsISO8601({ strict: true })
  @ApiPropertyOptional({ description: 'Start of the period (inclusive), strict ISO 8601 (`2026-11-01`, `2026-11-01T00:00:00Z`). Default: the first day of the current month, 00:00 UTC.' })
  from?: string;

  @IsOptional() @IsISO8601({ strict: true })
  @ApiPropertyOptional({ description: 'End of the period (exclusive), strict ISO 8601 (`2026-11-01`, `2026-11-01T00:00:00Z`). Default: now.' })
  to?: string;
}

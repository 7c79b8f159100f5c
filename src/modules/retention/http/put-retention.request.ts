import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { MAX_RETENTION_DAYS } from '../../../shared/config/env.js';
import { AUDIT_DAYS_MIN } from '../domain/retention.js';

const FOLLOWS_DEFAULT = '`null` or left out: the deployment\'s default applies.';

/** Replaces the organization's overrides: each key given as null, or left out, follows the default. */
export class PutRetentionRequest {
  @IsOptional() @IsInt() @Min(1) @Max(MAX_RETENTION_DAYS)
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_RETENTION_DAYS, nullable: true, description: `Days finished runs are kept after they finished. ${FOLLOWS_DEFAULT}` })
  runs_days?: number | null;

  @IsOptional() @IsInt() @Min(1) @Max(MAX_RETENTION_DAYS)
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_RETENTION_DAYS, nullable: true, description: `Days ended deliveries (delivered, or given up) and their attempts are kept after they ended. ${FOLLOWS_DEFAULT}` })
  deliveries_days?: number | null;

  @IsOptional() @IsInt() @Min(0) @Max(MAX_RETENTION_DAYS)
  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: MAX_RETENTION_DAYS, nullable: true, description: `Days a case stays Closed (unchanged) before it is deleted with its timeline, runs and deliveries; \`0\` keeps closed cases forever. ${FOLLOWS_DEFAULT}` })
  closed_cases_days?: number | null;

  @IsOptional() @IsInt() @Min(AUDIT_DAYS_MIN) @Max(MAX_RETENTION_DAYS)
  @ApiPropertyOptional({ type: 'integer', minimum: AUDIT_DAYS_MIN, maximum: MAX_RETENTION_DAYS, nullable: true, description: `Days audit entries are kept after the change they record; never fewer than ${AUDIT_DAYS_MIN}. ${FOLLOWS_DEFAULT} (365 days)` })
  audit_days?: number | null;
}

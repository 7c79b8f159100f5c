import { ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsIn, IsInt, IsObject, IsString, Length, Max, Min, ValidateIf } from 'class-validator';
import { IsWellFormedText } from '../../../shared/http/well-formed-text.js';
import { PRIORITIES, type Priority } from '../domain/case-work.js';

/** Validated when the key is present; null only where null means something (nobody, no team). */
const present = <K extends keyof WorkCaseRequest>(key: K, nullable = false) =>
  ValidateIf((body: WorkCaseRequest) => body[key] !== undefined && !(nullable && body[key] === null));

/** Any subset of the keys, at least one; any other key is a 422. */
@ApiSchema({ description: 'Any subset of the keys, at least one; each given is changed, together, or none is.' })
export class WorkCaseRequest {
  @present('assignee_id', true) @IsInt() @Min(1) @Max(Number.MAX_SAFE_INTEGER)
  @ApiPropertyOptional({ type: 'integer', nullable: true, minimum: 1, description: 'An active user of the organization with a role of `agent` or stronger (and a member of `team_id` when both are given); null: nobody.' })
  assignee_id?: number | null;

  @present('team_id', true) @IsInt() @Min(1) @Max(Number.MAX_SAFE_INTEGER)
  @ApiPropertyOptional({ type: 'integer', nullable: true, minimum: 1, description: 'A team of the organization; null: no team.' })
  team_id?: number | null;

  @present('priority') @IsIn(PRIORITIES)
  @ApiPropertyOptional({ enum: PRIORITIES })
  priority?: Priority;

  @present('status') @IsString() @IsWellFormedText() @Length(1, 200)
  @ApiPropertyOptional({ minLength: 1, maxLength: 200, description: 'As the cases API\'s PATCH: a status declared on the case\'s workflow version, other than `Error`.' })
  status?: string;

  @present('attributes') @IsObject({ message: 'attributes must be a JSON object' })
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'A JSON merge patch (RFC 7396) of the attributes: null removes a key, an object merges into an object. The merged attributes must pass the workflow\'s attribute schema as a whole.' })
  attributes?: Record<string, unknown>;
}

import { IsWellFormedText } from '../../../shared/http/well-formed-text.js';
import { ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { NUMBER_RULE } from '../../../shared/http/openapi-schema.js';
import { IsIn, IsObject, IsOptional, IsString, MaxLength, ValidateIf, validateSync } from 'class-validator';
import { InvalidRequestError } from '../../../shared/errors/app-error.js';
import type { CaseMode } from '../domain/case.js';

/** Only these keys are accepted; any other top-level key is a 422 before anything is created. */
@ApiSchema({ description: 'Only these top-level keys are accepted; any other key is a 422 before anything is created.' })
export class CreateCaseRequest {
  @IsOptional() @IsString() @IsWellFormedText() @MaxLength(1000)
  @ApiPropertyOptional({ type: 'string', nullable: true, description: 'Title. Omitted, null or blank: `<workflow name> via API - <YYYY-MM-DD HH:MM:SS> UTC`.' })
  subject?: string | null;

  // Present means it must be an object: null, arrays and strings are refused, not defaulted.
  @ValidateIf((body: CreateCaseRequest) => body.attributes !== undefined) @IsObject({ message: 'attributes must be a JSON object' })
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, default: {}, description: `Validated against the workflow's attribute schema. Must be an object when present (null, arrays and strings are refused). ${NUMBER_RULE}` })
  attributes?: Record<string, unknown>;

  @ValidateIf((body: CreateCaseRequest) => body.mode !== undefined) @IsIn(['live', 'test'])
  @ApiPropertyOptional({ enum: ['live', 'test'], default: 'live' })
  mode?: CaseMode;
}

/**
 * The subject rules above, for a subject that reaches intake by another way than this body (an
 * extension's case source): the same 422, with the problem at `/subject`.
 */
export function checkCaseSubject(subject: unknown): void {
  const problems = validateSync(Object.assign(new CreateCaseRequest(), { subject }))
    .filter((error) => error.property === 'subject')
    .flatMap((error) => Object.values(error.constraints ?? {}).map((message) => ({ path: '/subject', error: message })));
  if (problems.length) throw new InvalidRequestError('invalid case subject', problems);
}

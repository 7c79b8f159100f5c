import { IsWellFormedText } from '../../../shared/http/well-formed-text.js';
import { IsIn, IsObject, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';
import type { CaseMode } from '../domain/case.js';

/** Only these keys are accepted; any other top-level key is a 422 before anything is created. */
export class CreateCaseRequest {
  @IsOptional() @IsString() @IsWellFormedText() @MaxLength(1000)
  subject?: string | null;

  // Present means it must be an object: null, arrays and strings are refused, not defaulted.
  @ValidateIf((body: CreateCaseRequest) => body.attributes !== undefined) @IsObject({ message: 'attributes must be a JSON object' })
  attributes?: Record<string, unknown>;

  @ValidateIf((body: CreateCaseRequest) => body.mode !== undefined) @IsIn(['live', 'test'])
  mode?: CaseMode;
}

import { IsWellFormedText } from '../../../shared/http/well-formed-text.js';
import { IsIn, IsString, Length } from 'class-validator';
import type { TokenScope } from '../domain/access-token.js';

export class CreateTokenRequest {
  /** A label for people. */
  @IsString() @IsWellFormedText() @Length(1, 200)
  name: string;

  @IsIn(['api', 'admin'])
  scope: TokenScope;
}

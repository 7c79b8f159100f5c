import { IsIn, IsString, Length } from 'class-validator';
import type { TokenScope } from './access-token.orm-entity.js';

export class CreateTokenRequest {
  @IsString() @Length(1, 200)
  name: string;

  @IsIn(['api', 'admin'])
  scope: TokenScope;
}

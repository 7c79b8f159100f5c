import { IsWellFormedText } from '../../../shared/http/well-formed-text.js';
import { IsString, Length } from 'class-validator';

export class CreateOrganizationRequest {
  /** The organization's name. */
  @IsString() @IsWellFormedText() @Length(1, 200)
  name: string;
}

import { IsWellFormedText } from '../../../shared/http/well-formed-text.js';
import { IsEmail, IsOptional, IsString, Length, MaxLength } from 'class-validator';

export class CreateOrganizationRequest {
  /** The organization's name. */
  @IsString() @IsWellFormedText() @Length(1, 200)
  name: string;

  /** Becomes the organization's first owner (invited: mailed a sign-in link valid 7 days). */
  @IsOptional() @IsEmail({ require_tld: false }) @MaxLength(254)
  owner_email?: string;
}

import { IsEmail, MaxLength } from 'class-validator';

export class SignInEmailRequest {
  /** The address a sign-in link goes to, if it is a user's. */
  @IsEmail({ require_tld: false }) @MaxLength(254)
  email: string;
}

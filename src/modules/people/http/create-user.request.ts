import { IsEmail, IsIn, MaxLength } from 'class-validator';
import { ROLES, type Role } from '../../../shared/http/roles.js';

export class CreateUserRequest {
  /** Where the invitation goes; one user per address in an organization. */
  @IsEmail({ require_tld: false }) @MaxLength(254)
  email: string;

  @IsIn(ROLES)
  role: Role;
}

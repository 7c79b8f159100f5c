import { IsIn } from 'class-validator';
import { ROLES, type Role } from '../../../shared/http/roles.js';

export class ChangeUserRequest {
  /** The user's new role; the organization's last owner keeps `owner`. */
  @IsIn(ROLES)
  role: Role;
}

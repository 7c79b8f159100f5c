import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiSecurity, ApiTags } from '@nestjs/swagger';
import { RequiresRole } from '../../../shared/http/route-credentials.js';
import { ApiEndpoint, BODY_IGNORED, CHANGE_NOT_SAVED } from '../../../shared/http/api-endpoint.decorator.js';
import { IdParamPipe } from '../../../shared/http/id-param.pipe.js';
import { listOf, schemaRef, wrapped } from '../../../shared/http/openapi-schema.js';
import type { ChangeAuthor as Author } from '../../audit/domain/audit-entry.js';
import { ChangeAuthor } from '../../audit/http/change-author.decorator.js';
import type { Principal as Caller } from '../../tokens/domain/principal.js';
import { Principal } from '../../tokens/http/principal.decorator.js';
import { UsersService } from '../application/users.service.js';
import { ChangeUserRequest } from './change-user.request.js';
import { CreateUserRequest } from './create-user.request.js';

const LAST_OWNER = 'The user is the organization\'s last owner: an organization always keeps one.';

@Controller('api/admin/v1/users')
@RequiresRole('owner')
@ApiTags('People')
@ApiSecurity('adminToken')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Post()
  @ApiEndpoint({
    operationId: 'createUser',
    summary: 'Invite a user',
    description: 'The user starts `invited`; an invitation with a one-time sign-in link, valid 7 days, is mailed to the address by the worker through `SMTP_RELAY_URL` just after this answer (a relay that is down is tried again for about an hour, then the mail is given up and logged; the user exists all the same).',
    success: { status: 201, description: 'The invited user.', schema: wrapped('user', schemaRef('User')) },
    errors: {
      422: '`email` not an email address, `role` not one of the four, an unsupported key, or the organization already has a user with this address. Or the organization already has as many users as `MAX_USERS_PER_ORGANIZATION` allows (`cap` and `limit` name it).',
      429: 'The organization has sent as many invitations in 24 hours as `MAX_INVITATIONS_PER_DAY` allows; `Retry-After` says when the next may go.',
    },
  })
  async create(@Principal() caller: Caller, @ChangeAuthor() by: Author, @Body() body: CreateUserRequest) {
    return { user: await this.users.invite(by, caller.organizationId, body.email, body.role) };
  }

  @Get()
  @ApiEndpoint({
    operationId: 'listUsers',
    summary: 'List users',
    description: 'The organization\'s users, oldest first.',
    success: { status: 200, description: 'The users.', schema: listOf('users', 'User') },
  })
  async list(@Principal() caller: Caller) {
    return { users: await this.users.list(caller.organizationId) };
  }

  @Patch(':userId')
  @ApiEndpoint({
    operationId: 'changeUser',
    summary: 'Change a user\'s role',
    description: 'Acts on the user\'s next request, on every instance (within 1 s).',
    success: { status: 200, description: 'The user with the new role.', schema: wrapped('user', schemaRef('User')) },
    errors: { 404: 'No such user in the organization.', 422: `\`role\` not one of the four, an unsupported key, or: ${LAST_OWNER}`, 503: CHANGE_NOT_SAVED },
  })
  async change(@Principal() caller: Caller, @ChangeAuthor() by: Author, @Param('userId', new IdParamPipe('user')) userId: number, @Body() body: ChangeUserRequest) {
    return { user: await this.users.changeRole(by, caller.organizationId, userId, body.role) };
  }

  @Delete(':userId')
  @HttpCode(204)
  @ApiEndpoint({
    operationId: 'deleteUser',
    summary: 'Delete a user',
    description: `The user's sessions and sign-in links end with them: their next request is refused (401), on every instance within 1 s. ${BODY_IGNORED}`,
    success: { status: 204, description: 'Deleted; no body.' },
    errors: { 404: 'No such user in the organization.', 422: LAST_OWNER, 503: CHANGE_NOT_SAVED },
  })
  async delete(@Principal() caller: Caller, @ChangeAuthor() by: Author, @Param('userId', new IdParamPipe('user')) userId: number) {
    await this.users.delete(by, caller.organizationId, userId);
  }
}

import { Controller, Get, Req } from '@nestjs/common';
import { ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Env } from '../../../shared/config/env.js';
import { RequiresRole } from '../../../shared/http/route-credentials.js';
import { ApiEndpoint } from '../../../shared/http/api-endpoint.decorator.js';
import { schemaRef } from '../../../shared/http/openapi-schema.js';
import { sessionCookie } from '../../../shared/http/session-cookie.js';
import { type Principal as Caller, roleOf } from '../../tokens/domain/principal.js';
import { Principal } from '../../tokens/http/principal.decorator.js';
import { SessionsService } from '../application/sessions.service.js';

@Controller('api/admin/v1/me')
@RequiresRole('viewer')
@ApiTags('People')
@ApiSecurity('adminToken')
export class MeController {
  constructor(
    private readonly sessions: SessionsService,
    private readonly env: Env,
  ) {}

  @Get()
  @ApiEndpoint({
    operationId: 'getMe',
    summary: 'Who is calling',
    description: 'The signed-in person (with the CSRF token the dashboard sends) or the admin token, its role and organization.',
    success: { status: 200, description: 'The caller.', schema: schemaRef('Me') },
  })
  me(@Principal() caller: Caller, @Req() request: FastifyRequest) {
    const base = { role: roleOf(caller)!, organization: { id: caller.organizationId } };
    if (caller.kind === 'token') return { caller: { type: 'token', id: caller.tokenId, name: caller.name }, ...base };
    return { caller: { type: 'user', id: caller.userId, name: caller.name }, ...base, csrf_token: this.sessions.csrfToken(sessionCookie(request, this.env.PUBLIC_BASE_URL!)!) };
  }
}

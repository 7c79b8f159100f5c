import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Env } from '../../../shared/config/env.js';
import { ForbiddenError } from '../../../shared/errors/app-error.js';
import { bearerSecret, type CredentialCheck } from '../../../shared/http/route-credentials.js';
import { type Role, roleAllows } from '../../../shared/http/roles.js';
import { CSRF_HEADER, sessionCookie } from '../../../shared/http/session-cookie.js';
import { TokensService } from '../../tokens/application/tokens.service.js';
import { type Principal, roleOf } from '../../tokens/domain/principal.js';
import { SessionsService } from '../application/sessions.service.js';

const header = (request: FastifyRequest, name: string) => {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
};

/**
 * The one check of every admin route: a request with an `Authorization` header is a program with
 * an admin token (role `admin`); one without is a person with a session cookie. Either way the
 * caller's role must be at least the route's, or the answer is 403.
 */
@Injectable()
export class AdminCallerCheck implements CredentialCheck<{ kind: 'admin'; role: Role }, Principal> {
  constructor(
    private readonly tokens: TokensService,
    private readonly sessions: SessionsService,
    private readonly env: Env,
  ) {}

  async authenticate(request: FastifyRequest, credential: { role: Role }): Promise<Principal> {
    const caller = request.headers.authorization !== undefined
      ? await this.tokens.authenticate(bearerSecret(request), 'admin')
      : await this.sessions.authenticate(sessionCookie(request, this.env.PUBLIC_BASE_URL!), { method: request.method, origin: header(request, 'origin'), csrfToken: header(request, CSRF_HEADER) });
    const role = roleOf(caller)!;
    if (!roleAllows(role, credential.role)) throw new ForbiddenError(`this needs the ${credential.role} role or a stronger one; the caller has ${role}`);
    return caller;
  }
}


import { applyDecorators, type CanActivate, type ExecutionContext, Injectable, SetMetadata, UseGuards } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { UnauthorizedError } from '../../shared/errors/app-error.js';
import { bearerSecret, type CredentialCheck, RequiresCredential } from '../../shared/http/route-credentials.js';
import type { TokenScope } from './access-token.orm-entity.js';
import { TokensService } from './tokens.service.js';

const TOKEN_SCOPE = 'token-scope';

/**
 * Checks the bearer token against the scope its route requires. The look-up runs in the
 * credential hook, before the body is read (`authenticate`); the guard only lets in a request
 * that hook authenticated for this route's scope, and fails closed when a route names none.
 */
@Injectable()
export class BearerTokenGuard implements CanActivate, CredentialCheck<{ kind: 'bearer'; scope: string }> {
  constructor(private readonly reflector: Reflector, private readonly tokens: TokensService) {}

  async authenticate(request: FastifyRequest, credential: { scope: string }): Promise<void> {
    request.principal = await this.tokens.authenticate(bearerSecret(request), credential.scope as TokenScope);
  }

  canActivate(context: ExecutionContext): boolean {
    const scope = this.reflector.getAllAndOverride<TokenScope | undefined>(TOKEN_SCOPE, [context.getHandler(), context.getClass()]);
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (!scope || request.authenticatedBy !== 'bearer' || request.principal?.scope !== scope) throw new UnauthorizedError();
    return true;
  }
}

/** `@RequiresToken('api')` on a controller or handler: only a live token of that scope gets in. */
export const RequiresToken = (scope: TokenScope) =>
  applyDecorators(SetMetadata(TOKEN_SCOPE, scope), RequiresCredential({ kind: 'bearer', scope }), UseGuards(BearerTokenGuard));

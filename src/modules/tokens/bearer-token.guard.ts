import { applyDecorators, type CanActivate, type ExecutionContext, Injectable, SetMetadata, UseGuards } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { UnauthorizedError } from '../../shared/errors/app-error.js';
import type { TokenScope } from './access-token.orm-entity.js';
import { TokensService } from './tokens.service.js';

const TOKEN_SCOPE = 'token-scope';

/** Reads `Authorization: Bearer <secret>`; anything else is treated as no credential. */
export function bearerSecret(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/** Checks the bearer token against the scope its route requires; fails closed when a route names none. */
@Injectable()
export class BearerTokenGuard implements CanActivate {
  constructor(private readonly reflector: Reflector, private readonly tokens: TokensService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const scope = this.reflector.getAllAndOverride<TokenScope | undefined>(TOKEN_SCOPE, [context.getHandler(), context.getClass()]);
    if (!scope) throw new UnauthorizedError();
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    request.principal = await this.tokens.authenticate(bearerSecret(request), scope);
    return true;
  }
}

/** `@RequiresToken('api')` on a controller or handler: only a live token of that scope gets in. */
export const RequiresToken = (scope: TokenScope) => applyDecorators(SetMetadata(TOKEN_SCOPE, scope), UseGuards(BearerTokenGuard));

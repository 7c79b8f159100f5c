import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { bearerSecret, type CredentialCheck, RequiresCredential } from '../../../shared/http/route-credentials.js';
import type { TokenScope } from '../domain/access-token.js';
import type { TokenPrincipal } from '../domain/principal.js';
import { TokensService } from '../application/tokens.service.js';

/** Checks the bearer token against the scope its route requires; the caller it proves is the route's `@Principal()`. */
@Injectable()
export class BearerTokenCheck implements CredentialCheck<{ kind: 'bearer'; scope: string }, TokenPrincipal> {
  constructor(private readonly tokens: TokensService) {}

  authenticate(request: FastifyRequest, credential: { scope: string }): Promise<TokenPrincipal> {
    return this.tokens.authenticate(bearerSecret(request), credential.scope as TokenScope);
  }
}

/** `@RequiresToken('api')` on a controller or handler: only a live token of that scope gets in. */
export const RequiresToken = (scope: TokenScope) => RequiresCredential({ kind: 'bearer', scope });

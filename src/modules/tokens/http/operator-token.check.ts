import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Env } from '../../../shared/config/env.js';
import { NotFoundError, UnauthorizedError } from '../../../shared/errors/app-error.js';
import { bearerSecret, type CredentialCheck, RequiresCredential } from '../../../shared/http/route-credentials.js';
import { secretsEqual } from '../domain/token-secrets.js';

/** The operator API exists only when OPERATOR_TOKEN is set (404 otherwise) and takes only that token. */
@Injectable()
export class OperatorTokenCheck implements CredentialCheck<{ kind: 'operator' }> {
  constructor(private readonly env: Env) {}

  authenticate(request: FastifyRequest): void {
    const expected = this.env.OPERATOR_TOKEN;
    if (!expected) throw new NotFoundError('route');
    const presented = bearerSecret(request);
    if (presented === undefined || !secretsEqual(presented, expected)) throw new UnauthorizedError();
  }
}

/** `@RequiresOperatorToken()` on a controller: only `Authorization: Bearer <OPERATOR_TOKEN>` gets in. */
export const RequiresOperatorToken = () => RequiresCredential({ kind: 'operator' });

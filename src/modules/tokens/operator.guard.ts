import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Env } from '../../shared/config/env.js';
import { NotFoundError, UnauthorizedError } from '../../shared/errors/app-error.js';
import { bearerSecret } from './bearer-token.guard.js';
import { secretsEqual } from './token-secrets.js';

/** The operator API exists only when OPERATOR_TOKEN is set (404 otherwise) and takes only that token. */
@Injectable()
export class OperatorGuard implements CanActivate {
  constructor(private readonly env: Env) {}

  canActivate(context: ExecutionContext): boolean {
    const expected = this.env.OPERATOR_TOKEN;
    if (!expected) throw new NotFoundError('route');
    const presented = bearerSecret(context.switchToHttp().getRequest<FastifyRequest>());
    if (presented === undefined || !secretsEqual(presented, expected)) throw new UnauthorizedError();
    return true;
  }
}

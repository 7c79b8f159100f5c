import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { UnauthorizedError } from '../../shared/errors/app-error.js';
import type { Principal as PrincipalType } from './principal.js';

/** The caller a guard authenticated; a route without a guard gets a 401, never an undefined principal. */
export const Principal = createParamDecorator((_: unknown, context: ExecutionContext): PrincipalType => {
  const principal = context.switchToHttp().getRequest<FastifyRequest>().principal;
  if (!principal) throw new UnauthorizedError();
  return principal;
});

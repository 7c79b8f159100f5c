import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { InvalidRequestError } from '../../../shared/errors/app-error.js';
import { IDEMPOTENCY_KEY } from '../application/create-case.service.js';

/** The `Idempotency-Key` header, if sent; checked before the handler runs, so a bad one costs no database work. */
export const IdempotencyKey = createParamDecorator((_: unknown, context: ExecutionContext): string | undefined => {
  const key = context.switchToHttp().getRequest<FastifyRequest>().headers['idempotency-key'];
  if (key !== undefined && (typeof key !== 'string' || !IDEMPOTENCY_KEY.test(key))) {
    throw new InvalidRequestError('Idempotency-Key must be 1 to 255 printable ASCII characters');
  }
  return key;
});

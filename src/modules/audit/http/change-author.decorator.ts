import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { UnauthorizedError } from '../../../shared/errors/app-error.js';
import { proofOf } from '../../../shared/http/authenticated-requests.js';
import type { AuditActor, ChangeAuthor as Author } from '../domain/audit-entry.js';

/** What a bearer token proves (the tokens module's Principal), as far as the audit log names it. */
interface TokenProof {
  tokenId: number;
  name: string;
}

const OPERATOR: AuditActor = { type: 'operator', id: 'operator', name: 'operator' };

/**
 * The one place a request's principal becomes the actor of its audited changes: an admin token
 * is a token (its id and name), the operator token the operator. A signed-in user is added here.
 */
export function changeAuthorOf(request: FastifyRequest): Author {
  const kind = request.routeOptions.config?.credential?.kind;
  const token = proofOf<TokenProof>(request, 'bearer');
  const actor: AuditActor | undefined = token ? { type: 'token', id: String(token.tokenId), name: token.name } : kind === 'operator' ? OPERATOR : undefined;
  // Only routes whose credential the guard checked reach a handler; one without an actor is a route mistake.
  if (!actor) throw new UnauthorizedError();
  return { actor, address: request.ip ?? null };
}

/** `@ChangeAuthor()`: who makes the handler's change and from where, for the audit log. */
export const ChangeAuthor = createParamDecorator((_: unknown, context: ExecutionContext): Author => changeAuthorOf(context.switchToHttp().getRequest<FastifyRequest>()));

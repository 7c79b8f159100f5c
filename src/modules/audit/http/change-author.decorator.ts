import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { UnauthorizedError } from '../../../shared/errors/app-error.js';
import { proofOf } from '../../../shared/http/authenticated-requests.js';
import { type AuditActor, type ChangeAuthor as Author, userActor } from '../domain/audit-entry.js';

/** What a bearer token or a session proves (the tokens module's Principal), as far as the audit log names it. */
type CallerProof = { kind?: 'token'; tokenId: number; name: string } | { kind: 'user'; userId: number; name: string };

const OPERATOR: AuditActor = { type: 'operator', id: 'operator', name: 'operator' };

function callerActor(caller: CallerProof): AuditActor {
  return caller.kind === 'user' ? userActor({ id: caller.userId, email: caller.name }) : { type: 'token', id: String(caller.tokenId), name: caller.name };
}

/**
 * The one place a request's principal becomes the actor of its audited changes: a session's
 * person is a user (id, email), an admin token a token (its id and name), the operator token the operator.
 */
export function changeAuthorOf(request: FastifyRequest): Author {
  const kind = request.routeOptions.config?.credential?.kind;
  const caller = proofOf<CallerProof>(request, 'bearer', 'admin');
  const actor: AuditActor | undefined = caller ? callerActor(caller) : kind === 'operator' ? OPERATOR : undefined;
  // Only routes whose credential the guard checked reach a handler; one without an actor is a route mistake.
  if (!actor) throw new UnauthorizedError();
  return { actor, address: request.ip ?? null };
}

/** `@ChangeAuthor()`: who makes the handler's change and from where, for the audit log. */
export const ChangeAuthor = createParamDecorator((_: unknown, context: ExecutionContext): Author => changeAuthorOf(context.switchToHttp().getRequest<FastifyRequest>()));

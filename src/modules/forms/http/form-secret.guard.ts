import { applyDecorators, type CanActivate, type ExecutionContext, Injectable, UseGuards } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { NotFoundError } from '../../../shared/errors/app-error.js';
import { type CredentialCheck, formSecret, RequiresCredential } from '../../../shared/http/route-credentials.js';
import { type FormTarget, RequestFormsService } from '../application/request-forms.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by FormSecretGuard: the workflow the form URL reaches, and the version its cases start on. */
    formTarget?: FormTarget;
  }
}

/**
 * The secret in a form route's path must be the current form secret of a published ticketing
 * workflow, or the route is a 404 page. The look-up runs in the credential hook, before the body
 * is read (`authenticate`): a post to an unknown form costs no read, however large or slow its
 * body. The guard lets in only a request that hook authenticated.
 */
@Injectable()
export class FormSecretGuard implements CanActivate, CredentialCheck<{ kind: 'form' }> {
  constructor(private readonly forms: RequestFormsService) {}

  async authenticate(request: FastifyRequest): Promise<void> {
    const secret = formSecret(request);
    const target = secret === undefined ? null : await this.forms.resolve(secret);
    if (!target) throw new NotFoundError('form');
    request.formTarget = target;
  }

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (request.authenticatedBy !== 'form' || !request.formTarget) throw new NotFoundError('form');
    return true;
  }
}

/** `@RequiresFormSecret()` on the form pages: only the current secret of a form that takes cases gets in. */
export const RequiresFormSecret = () => applyDecorators(RequiresCredential({ kind: 'form' }), UseGuards(FormSecretGuard));

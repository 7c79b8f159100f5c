import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { NotFoundError } from '../../../shared/errors/app-error.js';
import { proofParameter } from '../../../shared/http/authenticated-requests.js';
import { type CredentialCheck, formSecret, RequiresCredential } from '../../../shared/http/route-credentials.js';
import { type FormTarget, RequestFormsService } from '../application/request-forms.service.js';

/**
 * The secret in a form route's path must be the current form secret of a published ticketing
 * workflow, or the route is a 404 page. The look-up runs in the credential hook, before the body
 * is read: a post to an unknown form costs no read, however large or slow its body.
 */
@Injectable()
export class FormSecretCheck implements CredentialCheck<{ kind: 'form' }, FormTarget> {
  constructor(private readonly forms: RequestFormsService) {}

  async authenticate(request: FastifyRequest): Promise<FormTarget> {
    const secret = formSecret(request);
    const target = secret === undefined ? null : await this.forms.resolve(secret);
    if (!target) throw new NotFoundError('form');
    return target;
  }
}

/** `@RequiresFormSecret()` on the form pages: only the current secret of a form that takes cases gets in. */
export const RequiresFormSecret = () => RequiresCredential({ kind: 'form' });

/** `@FormWorkflow()`: the workflow the route's form secret reaches, and the version its cases start on. */
export const FormWorkflow = proofParameter<FormTarget>('form');

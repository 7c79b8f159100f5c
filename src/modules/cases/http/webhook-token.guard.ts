import { applyDecorators, type CanActivate, type ExecutionContext, Injectable, UseGuards } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import { UnauthorizedError } from '../../../shared/errors/app-error.js';
import { checkBodylessRequest } from '../../../shared/http/json-body-parser.js';
import { type CredentialCheck, RequiresCredential, webhookSecret } from '../../../shared/http/route-credentials.js';
import { sha256 } from '../../../shared/crypto/sha256.js';
import type { SignatureCheck } from '../../workflows/domain/signature-schemes.js';
import type { WorkflowVersion } from '../../workflows/domain/workflow-version.js';
import { PublishedWorkflowsService } from '../../workflows/application/published-workflows.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by WebhookTokenGuard: the published version the webhook creates cases on. */
    webhookWorkflow?: { organizationId: number; version: WorkflowVersion };
  }
}

/**
 * The webhook token in the query string must be the one of the workflow in the path, and that
 * workflow must be published and direct right now. Every failure is the same 401. The
 * `Authorization` header is not looked at. The check runs in the credential hook, before the
 * body is read (`authenticate`); the guard lets in only a request that hook authenticated.
 * When the workflow requires a signature, the body parser checks it over the exact bytes before
 * parsing them (or the guard, over none, when no body came): 401 `signature verification failed`.
 */
@Injectable()
export class WebhookTokenGuard implements CanActivate, CredentialCheck<{ kind: 'webhook' }> {
  constructor(private readonly workflows: PublishedWorkflowsService) {}

  async authenticate(request: FastifyRequest): Promise<void> {
    const token = webhookSecret(request);
    const { workflowId: idText } = request.params as { workflowId?: string };
    const workflowId = /^[1-9][0-9]{0,15}$/.test(idText ?? '') ? Number(idText) : NaN;
    if (token === undefined || !Number.isSafeInteger(workflowId)) throw new UnauthorizedError('invalid webhook URL');
    const state = await this.workflows.state(workflowId);
    const expected = state?.webhookTokenHash;
    if (!state || !expected || !timingSafeEqual(sha256(token), expected) || !state.published || !state.current?.isDirect) {
      throw new UnauthorizedError('invalid webhook URL');
    }
    request.webhookWorkflow = { organizationId: state.organizationId, version: state.current };
    if (state.webhookSignature) request.rawBodyCheck = signatureRequired(request, state.webhookSignature);
  }

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (request.authenticatedBy !== 'webhook' || !request.webhookWorkflow) throw new UnauthorizedError('invalid webhook URL');
    checkBodylessRequest(request);
    return true;
  }
}

function signatureRequired(request: FastifyRequest, signature: SignatureCheck): (raw: Buffer) => void {
  const header = (name: string) => {
    const value = request.headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  };
  return (raw) => {
    if (!signature(header, raw, Date.now() / 1000)) throw new UnauthorizedError('signature verification failed');
  };
}

/** `@RequiresWebhookToken()` on the webhook controller: only its workflow's `?token=` gets in. */
export const RequiresWebhookToken = () => applyDecorators(RequiresCredential({ kind: 'webhook' }), UseGuards(WebhookTokenGuard));

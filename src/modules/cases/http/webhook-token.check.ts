import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import { UnauthorizedError } from '../../../shared/errors/app-error.js';
import { requiredProof } from '../../../shared/http/authenticated-requests.js';
import { type CredentialCheck, RequiresCredential, secretHash, webhookSecret } from '../../../shared/http/route-credentials.js';
import type { SignatureCheck } from '../../workflows/domain/signature-schemes.js';
import type { WorkflowVersion } from '../../workflows/domain/workflow-version.js';
import { PublishedWorkflowsService } from '../../workflows/application/published-workflows.service.js';

/** What a webhook's token proves: the published version the webhook creates cases on. */
export interface WebhookTarget {
  organizationId: number;
  version: WorkflowVersion;
}

/**
 * The webhook token in the query string must be the one of the workflow in the path, and that
 * workflow must be published and direct right now. Every failure is the same 401. The
 * `Authorization` header is not looked at. When the workflow requires a signature, the body
 * parser checks it over the exact bytes before parsing them (or the route's guard, over none,
 * when no body came): 401 `signature verification failed`.
 */
@Injectable()
export class WebhookTokenCheck implements CredentialCheck<{ kind: 'webhook' }, WebhookTarget> {
  constructor(private readonly workflows: PublishedWorkflowsService) {}

  async authenticate(request: FastifyRequest): Promise<WebhookTarget> {
    const token = webhookSecret(request);
    const { workflowId: idText } = request.params as { workflowId?: string };
    const workflowId = /^[1-9][0-9]{0,15}$/.test(idText ?? '') ? Number(idText) : NaN;
    if (token === undefined || !Number.isSafeInteger(workflowId)) throw new UnauthorizedError('invalid webhook URL');
    const state = await this.workflows.state(workflowId);
    const expected = state?.webhookTokenHash;
    if (!state || !expected || !timingSafeEqual(secretHash(request, token), expected) || !state.published || !state.current?.isDirect) {
      throw new UnauthorizedError('invalid webhook URL');
    }
    if (state.webhookSignature) request.rawBodyCheck = signatureRequired(request, state.webhookSignature);
    return { organizationId: state.organizationId, version: state.current };
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
export const RequiresWebhookToken = () => RequiresCredential({ kind: 'webhook' });

/** The published version the webhook token of `request` reaches (the webhook route is a DirectRoute: no parameter decorators). */
export const webhookTarget = (request: FastifyRequest): WebhookTarget => requiredProof<WebhookTarget>(request, 'webhook');

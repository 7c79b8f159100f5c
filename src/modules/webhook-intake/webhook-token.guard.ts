import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import { UnauthorizedError } from '../../shared/errors/app-error.js';
import { sha256 } from '../tokens/token-secrets.js';
import type { WorkflowVersion } from '../workflows/workflow-version.js';
import { WorkflowsService } from '../workflows/workflows.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by WebhookTokenGuard: the published version the webhook creates cases on. */
    webhookWorkflow?: { organizationId: number; version: WorkflowVersion };
  }
}

/**
 * The webhook token in the query string must be the one of the workflow in the path, and that
 * workflow must be published and direct right now. Every failure is the same 401. The
 * `Authorization` header is not looked at.
 */
@Injectable()
export class WebhookTokenGuard implements CanActivate {
  constructor(private readonly workflows: WorkflowsService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest<{ Params: { workflowId: string }; Querystring: { token?: unknown } }>>();
    const token = request.query.token;
    const workflowId = /^[1-9][0-9]{0,15}$/.test(request.params.workflowId) ? Number(request.params.workflowId) : NaN;
    if (typeof token !== 'string' || token === '' || !Number.isSafeInteger(workflowId)) throw new UnauthorizedError('invalid webhook URL');
    const state = await this.workflows.state(workflowId);
    const expected = state?.webhookTokenHash;
    if (!state || !expected || !timingSafeEqual(sha256(token), expected) || !state.published || !state.current?.isDirect) {
      throw new UnauthorizedError('invalid webhook URL');
    }
    request.webhookWorkflow = { organizationId: state.organizationId, version: state.current };
    return true;
  }
}

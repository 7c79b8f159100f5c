import type { ExecutionContext, Type } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import type { ChangeAuthor } from '../../src/modules/audit/domain/audit-entry.js';
import { OrganizationsService } from '../../src/modules/organizations/application/organizations.service.js';
import type { TokenPrincipal } from '../../src/modules/tokens/domain/principal.js';
import { TokensService } from '../../src/modules/tokens/application/tokens.service.js';
import { PublishedWorkflowsService } from '../../src/modules/workflows/application/published-workflows.service.js';
import { WorkflowDraftsService } from '../../src/modules/workflows/application/workflow-drafts.service.js';
import { WorkflowPublishingService } from '../../src/modules/workflows/application/workflow-publishing.service.js';
import type { WorkflowVersion } from '../../src/modules/workflows/domain/workflow-version.js';
import type { IntegrationContext } from './integration-context.js';
import { sampleDefinition } from './scenario.js';

/** The set-ups of the integration tier, through the application services (no HTTP). */

/** Who makes the changes integration tests make through services, for the audit log. */
export const TEST_AUTHOR: ChangeAuthor = { actor: { type: 'token', id: '0', name: 'an admin token' }, address: null };

export interface IntegrationOrganization {
  id: number;
  /** An API token of the organization, as its guard would hand it to a service. */
  api: TokenPrincipal & { secret: string };
}

export async function givenOrganization(ctx: IntegrationContext): Promise<IntegrationOrganization> {
  const { organization } = await ctx.get(OrganizationsService).create(TEST_AUTHOR, `Org ${randomBytes(3).toString('hex')}`);
  const { token, secret } = await ctx.get(TokensService).create(TEST_AUTHOR, organization.id, 'api token', 'api');
  return { id: organization.id, api: { kind: 'token', organizationId: organization.id, tokenId: token.id, scope: 'api', name: token.name, secret } };
}

/** A workflow of the organization, published: the version intake uses. */
export async function givenPublishedWorkflow(ctx: IntegrationContext, organizationId: number, definition = sampleDefinition()): Promise<WorkflowVersion> {
  const { id } = await ctx.get(WorkflowDraftsService).create(TEST_AUTHOR, organizationId, definition);
  await ctx.get(WorkflowPublishingService).publish(TEST_AUTHOR, organizationId, id);
  return (await ctx.get(PublishedWorkflowsService).state(id))!.current!;
}

/** A request as the credential hook sees it: only what the checks read. */
export function credentialRequest(parts: { authorization?: string; query?: Record<string, string>; params?: Record<string, string> }): FastifyRequest {
  return {
    headers: parts.authorization === undefined ? {} : { authorization: parts.authorization },
    query: parts.query ?? {},
    params: parts.params ?? {},
  } as unknown as FastifyRequest;
}

/** What a guard's `canActivate` is given for `request` on the handler `method` of `controller`. */
export function routeContext<C>(request: FastifyRequest, controller: Type<C>, method: keyof C & string): ExecutionContext {
  return {
    switchToHttp: () => ({ getRequest: () => request }),
    getHandler: () => controller.prototype[method],
    getClass: () => controller,
  } as unknown as ExecutionContext;
}

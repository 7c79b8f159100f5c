/**
 * The credential checks each route declares, called as the credential hook and the guards call
 * them (see src/shared/http/route-credentials.ts), and the TokensService behind the bearer
 * check: one 401 for every bad credential, and revocation acting on the next request.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { CasesController } from '../../src/modules/cases/http/cases.controller.js';
import { WebhookTokenGuard } from '../../src/modules/cases/http/webhook-token.guard.js';
import { HealthController } from '../../src/modules/health/health.controller.js';
import { BearerTokenGuard } from '../../src/modules/tokens/bearer-token.guard.js';
import { OperatorGuard } from '../../src/modules/tokens/operator.guard.js';
import { TokensController } from '../../src/modules/tokens/tokens.controller.js';
import { TokensService } from '../../src/modules/tokens/tokens.service.js';
import { WebhookUrlsService } from '../../src/modules/workflows/application/webhook-urls.service.js';
import { WorkflowDraftsService } from '../../src/modules/workflows/application/workflow-drafts.service.js';
import { WorkflowPublishingService } from '../../src/modules/workflows/application/workflow-publishing.service.js';
import { validateEnv } from '../../src/shared/config/env.js';
import { NotFoundError, UnauthorizedError } from '../../src/shared/errors/app-error.js';
import { type IntegrationContext, startIntegrationContext } from '../support/integration-context.js';
import { credentialRequest, givenOrganization, givenPublishedWorkflow, type IntegrationOrganization, routeContext } from '../support/integration-scenario.js';
import { operatorToken, sampleDefinition } from '../support/scenario.js';
import { closeDb, db } from '../support/test-app.js';

describe('credential checks (integration)', () => {
  let ctx: IntegrationContext;
  let org: IntegrationOrganization;
  let tokens: TokensService;

  before(async () => {
    ctx = await startIntegrationContext();
    tokens = ctx.get(TokensService);
    org = await givenOrganization(ctx);
  });
  after(async () => {
    await ctx.close();
    await closeDb();
  });

  const bearer = (secret: string) => credentialRequest({ authorization: `Bearer ${secret}` });

  describe('TokensService', () => {
    it('authenticates a token for its own scope only, and keeps only its hash (and names it by the token\'s name)', async () => {
      const admin = await tokens.create(org.id, 'admin token', 'admin');
      assert.deepEqual(await tokens.authenticate(admin.secret, 'admin'), { tokenId: admin.token.id, organizationId: org.id, scope: 'admin', name: 'admin token' });
      await assert.rejects(tokens.authenticate(admin.secret, 'api'), UnauthorizedError);
      await assert.rejects(tokens.authenticate(org.api.secret, 'admin'), UnauthorizedError);
      const { rows } = await db().query('SELECT token_hash FROM access_tokens WHERE id = $1', [admin.token.id]);
      assert.deepEqual(rows[0].token_hash, createHash('sha256').update(admin.secret).digest());
    });

    it('gives one answer for a missing, malformed or unknown token', async () => {
      for (const secret of [undefined, '', 'api_', `api_${'A'.repeat(43)}`, org.api.secret.slice(0, -1), ` ${org.api.secret}`]) {
        await assert.rejects(tokens.authenticate(secret, 'api'), (err: unknown) => err instanceof UnauthorizedError && err.message === 'missing or invalid credentials', String(secret));
      }
    });

    it('refuses a deleted token on the next check (its cached principal goes), and lists it no more', async () => {
      const doomed = await tokens.create(org.id, 'doomed', 'api');
      await tokens.authenticate(doomed.secret, 'api');
      await tokens.delete(org.id, doomed.token.id);
      await assert.rejects(tokens.authenticate(doomed.secret, 'api'), UnauthorizedError);
      assert.ok(!(await tokens.list(org.id)).some((t) => t.id === doomed.token.id));
      await assert.rejects(tokens.delete(org.id, doomed.token.id), NotFoundError);
    });

    it('deletes tokens of the caller\'s organization only', async () => {
      const stranger = await givenOrganization(ctx);
      await assert.rejects(tokens.delete(stranger.id, org.api.tokenId), NotFoundError);
      assert.equal((await tokens.authenticate(org.api.secret, 'api')).tokenId, org.api.tokenId);
    });
  });

  describe('BearerTokenGuard', () => {
    it('puts the principal on the request, and lets it through only to a route of its scope', async () => {
      const guard = ctx.get(BearerTokenGuard);
      const request = bearer(org.api.secret);
      await guard.authenticate(request, { scope: 'api' });
      assert.deepEqual(request.principal, { tokenId: org.api.tokenId, organizationId: org.id, scope: 'api', name: 'api token' });
      request.authenticatedBy = 'bearer';
      assert.equal(guard.canActivate(routeContext(request, CasesController, 'create')), true);
      assert.throws(() => guard.canActivate(routeContext(request, TokensController, 'list')), UnauthorizedError);
    });

    it('fails closed: a route that names no scope, or a request its hook did not authenticate', async () => {
      const guard = ctx.get(BearerTokenGuard);
      const request = bearer(org.api.secret);
      await guard.authenticate(request, { scope: 'api' });
      assert.throws(() => guard.canActivate(routeContext(request, CasesController, 'create')), UnauthorizedError, 'not marked authenticated by the hook');
      request.authenticatedBy = 'bearer';
      assert.throws(() => guard.canActivate(routeContext(request, HealthController, 'healthz')), UnauthorizedError);
      await assert.rejects(guard.authenticate(credentialRequest({ authorization: `Basic ${org.api.secret}` }), { scope: 'api' }), UnauthorizedError);
    });
  });

  describe('WebhookTokenGuard', () => {
    async function givenWebhook(definition = sampleDefinition()) {
      const workflow = await givenPublishedWorkflow(ctx, org.id, definition);
      const { token } = await ctx.get(WebhookUrlsService).generate(org.id, workflow.workflowId);
      return { id: workflow.workflowId, token };
    }
    const webhookRequest = (workflowId: string | number, token?: string) =>
      credentialRequest({ params: { workflowId: String(workflowId) }, query: token === undefined ? {} : { token } });

    it('finds the published version for the workflow\'s own token, whatever the Authorization header says', async () => {
      const hook = await givenWebhook();
      const guard = ctx.get(WebhookTokenGuard);
      const request = webhookRequest(hook.id, hook.token);
      request.headers.authorization = 'Bearer nonsense';
      await guard.authenticate(request);
      assert.deepEqual([request.webhookWorkflow!.organizationId, request.webhookWorkflow!.version.workflowId], [org.id, hook.id]);
      request.authenticatedBy = 'webhook';
      assert.equal(guard.canActivate(routeContext(request, CasesController, 'create')), true);
    });

    it('refuses with one 401 a missing or wrong token, another workflow\'s token, and a malformed workflow id', async () => {
      const [hook, other] = [await givenWebhook(), await givenWebhook()];
      const guard = ctx.get(WebhookTokenGuard);
      const refused = [
        webhookRequest(hook.id),
        webhookRequest(hook.id, ''),
        webhookRequest(hook.id, hook.token.slice(0, -1)),
        webhookRequest(hook.id, other.token),
        webhookRequest(`0${hook.id}`, hook.token),
        webhookRequest('99999999999999999', hook.token),
      ];
      for (const request of refused) {
        await assert.rejects(guard.authenticate(request), (err: unknown) => err instanceof UnauthorizedError && err.message === 'invalid webhook URL');
        assert.equal(request.webhookWorkflow, undefined);
      }
    });

    it('refuses the token at once once its workflow is unpublished, republished as not direct, or its token rotated', async () => {
      const guard = ctx.get(WebhookTokenGuard);
      const hook = await givenWebhook();
      await guard.authenticate(webhookRequest(hook.id, hook.token));
      await ctx.get(WorkflowPublishingService).unpublish(org.id, hook.id);
      await assert.rejects(guard.authenticate(webhookRequest(hook.id, hook.token)), UnauthorizedError);

      const ticketing = await givenWebhook();
      await ctx.get(WorkflowDraftsService).replaceDraft(org.id, ticketing.id, sampleDefinition({ case_source: 'ticketing' }));
      await ctx.get(WorkflowPublishingService).publish(org.id, ticketing.id, 'an admin token');
      await assert.rejects(guard.authenticate(webhookRequest(ticketing.id, ticketing.token)), UnauthorizedError);

      const rotating = await givenWebhook();
      const { token } = await ctx.get(WebhookUrlsService).rotate(rotating.id);
      await assert.rejects(guard.authenticate(webhookRequest(rotating.id, rotating.token)), UnauthorizedError);
      await guard.authenticate(webhookRequest(rotating.id, token));
    });

    it('lets in only a request its hook authenticated', async () => {
      const hook = await givenWebhook();
      const request = webhookRequest(hook.id, hook.token);
      await ctx.get(WebhookTokenGuard).authenticate(request);
      assert.throws(() => ctx.get(WebhookTokenGuard).canActivate(routeContext(request, CasesController, 'create')), UnauthorizedError);
    });
  });

  describe('OperatorGuard', () => {
    it('takes only OPERATOR_TOKEN, and only from the hook', () => {
      const guard = ctx.get(OperatorGuard);
      const request = bearer(operatorToken());
      guard.authenticate(request);
      for (const wrong of [bearer(`${operatorToken()}x`), bearer(org.api.secret), credentialRequest({})]) {
        assert.throws(() => guard.authenticate(wrong), UnauthorizedError);
      }
      assert.throws(() => guard.canActivate(routeContext(request, CasesController, 'create')), UnauthorizedError);
      request.authenticatedBy = 'operator';
      assert.equal(guard.canActivate(routeContext(request, CasesController, 'create')), true);
    });

    it('hides the operator API (not found) when OPERATOR_TOKEN is not set', () => {
      const withoutOperator = new OperatorGuard(validateEnv({ ...process.env, OPERATOR_TOKEN: undefined }));
      assert.throws(() => withoutOperator.authenticate(bearer(operatorToken())), NotFoundError);
    });
  });
});

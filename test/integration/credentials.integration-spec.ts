/**
 * The credential checks each route declares, called as the credential hook and the route's guard
 * call them (see src/shared/http/authenticated-requests.ts), and the TokensService behind the bearer
 * check: one 401 for every bad credential, and revocation acting on the next request.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { CasesController } from '../../src/modules/cases/http/cases.controller.js';
import { WebhookCasesController } from '../../src/modules/cases/http/webhook-cases.controller.js';
import { type WebhookTarget, WebhookTokenCheck } from '../../src/modules/cases/http/webhook-token.check.js';
import { HealthController } from '../../src/modules/health/http/health.controller.js';
import { OperatorOrganizationsController } from '../../src/modules/organizations/http/operator-organizations.controller.js';
import { BearerTokenCheck } from '../../src/modules/tokens/http/bearer-token.check.js';
import { OperatorTokenCheck } from '../../src/modules/tokens/http/operator-token.check.js';
import { TokensController } from '../../src/modules/tokens/http/tokens.controller.js';
import { TokensService } from '../../src/modules/tokens/application/tokens.service.js';
import { WebhookUrlsService } from '../../src/modules/workflows/application/webhook-urls.service.js';
import { WorkflowDraftsService } from '../../src/modules/workflows/application/workflow-drafts.service.js';
import { WorkflowPublishingService } from '../../src/modules/workflows/application/workflow-publishing.service.js';
import { validateEnv } from '../../src/shared/config/env.js';
import { NotFoundError, UnauthorizedError } from '../../src/shared/errors/app-error.js';
import { authenticateRequest, CredentialGuard, proofOf } from '../../src/shared/http/authenticated-requests.js';
import { type IntegrationContext, startIntegrationContext } from '../support/integration-context.js';
import { credentialRequest, givenOrganization, givenPublishedWorkflow, type IntegrationOrganization, routeContext, TEST_AUTHOR } from '../support/integration-scenario.js';
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
      const admin = await tokens.create(TEST_AUTHOR, org.id, 'admin token', 'admin');
      assert.deepEqual(await tokens.authenticate(admin.secret, 'admin'), { kind: 'token', tokenId: admin.token.id, organizationId: org.id, scope: 'admin', name: 'admin token' });
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
      const doomed = await tokens.create(TEST_AUTHOR, org.id, 'doomed', 'api');
      await tokens.authenticate(doomed.secret, 'api');
      await tokens.delete(TEST_AUTHOR, org.id, doomed.token.id);
      await assert.rejects(tokens.authenticate(doomed.secret, 'api'), UnauthorizedError);
      assert.ok(!(await tokens.list(org.id)).some((t) => t.id === doomed.token.id));
      await assert.rejects(tokens.delete(TEST_AUTHOR, org.id, doomed.token.id), NotFoundError);
    });

    it('deletes tokens of the caller\'s organization only', async () => {
      const stranger = await givenOrganization(ctx);
      await assert.rejects(tokens.delete(TEST_AUTHOR, stranger.id, org.api.tokenId), NotFoundError);
      assert.equal((await tokens.authenticate(org.api.secret, 'api')).tokenId, org.api.tokenId);
    });
  });

  const guard = new CredentialGuard();

  describe('BearerTokenCheck', () => {
    it('proves the principal of the request, and lets it through only to a route of its scope', async () => {
      const check = ctx.get(BearerTokenCheck);
      const request = bearer(org.api.secret);
      await authenticateRequest(request, { kind: 'bearer', scope: 'api' }, check);
      assert.deepEqual(proofOf(request, 'bearer'), { kind: 'token', tokenId: org.api.tokenId, organizationId: org.id, scope: 'api', name: 'api token' });
      assert.equal(guard.canActivate(routeContext(request, CasesController, 'create')), true);
      assert.throws(() => guard.canActivate(routeContext(request, TokensController, 'list')), UnauthorizedError);
    });

    it('fails closed: a route that names no scope, or a request its hook did not authenticate', async () => {
      const check = ctx.get(BearerTokenCheck);
      const request = bearer(org.api.secret);
      await check.authenticate(request, { scope: 'api' });
      assert.throws(() => guard.canActivate(routeContext(request, CasesController, 'create')), UnauthorizedError, 'not marked authenticated by the hook');
      await authenticateRequest(request, { kind: 'bearer', scope: 'api' }, check);
      assert.throws(() => guard.canActivate(routeContext(request, HealthController, 'healthz')), UnauthorizedError);
      await assert.rejects(check.authenticate(credentialRequest({ authorization: `Basic ${org.api.secret}` }), { scope: 'api' }), UnauthorizedError);
    });
  });

  describe('WebhookTokenCheck', () => {
    async function givenWebhook(definition = sampleDefinition()) {
      const workflow = await givenPublishedWorkflow(ctx, org.id, definition);
      const { token } = await ctx.get(WebhookUrlsService).generate(TEST_AUTHOR, org.id, workflow.workflowId);
      return { id: workflow.workflowId, token };
    }
    const webhookRequest = (workflowId: string | number, token?: string) =>
      credentialRequest({ params: { workflowId: String(workflowId) }, query: token === undefined ? {} : { token } });

    it('finds the published version for the workflow\'s own token, whatever the Authorization header says', async () => {
      const hook = await givenWebhook();
      const request = webhookRequest(hook.id, hook.token);
      request.headers.authorization = 'Bearer nonsense';
      await authenticateRequest(request, { kind: 'webhook' }, ctx.get(WebhookTokenCheck));
      const workflow = proofOf<WebhookTarget>(request, 'webhook');
      assert.deepEqual([workflow!.organizationId, workflow!.version.workflowId], [org.id, hook.id]);
      assert.equal(guard.canActivate(routeContext(request, WebhookCasesController, 'receive')), true);
    });

    it('refuses with one 401 a missing or wrong token, another workflow\'s token, and a malformed workflow id', async () => {
      const [hook, other] = [await givenWebhook(), await givenWebhook()];
      const check = ctx.get(WebhookTokenCheck);
      const refused = [
        webhookRequest(hook.id),
        webhookRequest(hook.id, ''),
        webhookRequest(hook.id, hook.token.slice(0, -1)),
        webhookRequest(hook.id, other.token),
        webhookRequest(`0${hook.id}`, hook.token),
        webhookRequest('99999999999999999', hook.token),
      ];
      for (const request of refused) {
        await assert.rejects(authenticateRequest(request, { kind: 'webhook' }, check), (err: unknown) => err instanceof UnauthorizedError && err.message === 'invalid webhook URL');
        assert.equal(proofOf(request, 'webhook'), undefined);
      }
    });

    it('refuses the token at once once its workflow is unpublished, republished as not direct, or its token rotated', async () => {
      const check = ctx.get(WebhookTokenCheck);
      const hook = await givenWebhook();
      await check.authenticate(webhookRequest(hook.id, hook.token));
      await ctx.get(WorkflowPublishingService).unpublish(TEST_AUTHOR, org.id, hook.id);
      await assert.rejects(check.authenticate(webhookRequest(hook.id, hook.token)), UnauthorizedError);

      const ticketing = await givenWebhook();
      await ctx.get(WorkflowDraftsService).replaceDraft(TEST_AUTHOR, org.id, ticketing.id, sampleDefinition({ case_source: 'ticketing' }));
      await ctx.get(WorkflowPublishingService).publish(TEST_AUTHOR, org.id, ticketing.id);
      await assert.rejects(check.authenticate(webhookRequest(ticketing.id, ticketing.token)), UnauthorizedError);

      const rotating = await givenWebhook();
      const { token } = await ctx.get(WebhookUrlsService).rotate(TEST_AUTHOR, rotating.id);
      await assert.rejects(check.authenticate(webhookRequest(rotating.id, rotating.token)), UnauthorizedError);
      await check.authenticate(webhookRequest(rotating.id, token));
    });

    it('lets in only a request its hook authenticated', async () => {
      const hook = await givenWebhook();
      const request = webhookRequest(hook.id, hook.token);
      await ctx.get(WebhookTokenCheck).authenticate(request);
      assert.throws(() => guard.canActivate(routeContext(request, WebhookCasesController, 'receive')), UnauthorizedError);
    });
  });

  describe('OperatorTokenCheck', () => {
    it('takes only OPERATOR_TOKEN, and only from the hook', async () => {
      const check = ctx.get(OperatorTokenCheck);
      const request = bearer(operatorToken());
      check.authenticate(request);
      for (const wrong of [bearer(`${operatorToken()}x`), bearer(org.api.secret), credentialRequest({})]) {
        assert.throws(() => check.authenticate(wrong), UnauthorizedError);
      }
      assert.throws(() => guard.canActivate(routeContext(request, OperatorOrganizationsController, 'create')), UnauthorizedError);
      await authenticateRequest(request, { kind: 'operator' }, check);
      assert.equal(guard.canActivate(routeContext(request, OperatorOrganizationsController, 'create')), true);
    });

    it('hides the operator API (not found) when OPERATOR_TOKEN is not set', () => {
      const withoutOperator = new OperatorTokenCheck(validateEnv({ ...process.env, OPERATOR_TOKEN: undefined }));
      assert.throws(() => withoutOperator.authenticate(bearer(operatorToken())), NotFoundError);
    });
  });
});

/**
 * The workflows application services: drafts, publishing, webhook URLs, and the published state
 * intake reads (PublishedWorkflowsService), whose cache every change must drop.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { PublishedWorkflowsService } from '../../src/modules/workflows/application/published-workflows.service.js';
import { WebhookUrlsService } from '../../src/modules/workflows/application/webhook-urls.service.js';
import { WorkflowDraftsService } from '../../src/modules/workflows/application/workflow-drafts.service.js';
import { WorkflowPublishingService } from '../../src/modules/workflows/application/workflow-publishing.service.js';
import { WebhookUnavailableError, WorkflowDefinitionInvalidError } from '../../src/modules/workflows/domain/workflow.errors.js';
import { NotFoundError } from '../../src/shared/errors/app-error.js';
import { type IntegrationContext, startIntegrationContext } from '../support/integration-context.js';
import { givenOrganization, givenPublishedWorkflow, type IntegrationOrganization, TEST_AUTHOR } from '../support/integration-scenario.js';
import { sampleDefinition } from '../support/scenario.js';
import { closeDb, db } from '../support/test-app.js';

describe('workflows application services (integration)', () => {
  let ctx: IntegrationContext;
  let org: IntegrationOrganization;
  let stranger: IntegrationOrganization;
  let drafts: WorkflowDraftsService;
  let publishing: WorkflowPublishingService;
  let published: PublishedWorkflowsService;
  let webhooks: WebhookUrlsService;

  before(async () => {
    ctx = await startIntegrationContext();
    [drafts, publishing, published, webhooks] = [ctx.get(WorkflowDraftsService), ctx.get(WorkflowPublishingService), ctx.get(PublishedWorkflowsService), ctx.get(WebhookUrlsService)];
    [org, stranger] = [await givenOrganization(ctx), await givenOrganization(ctx)];
  });
  after(async () => {
    await ctx.close();
    await closeDb();
  });

  const workflowCount = async (organizationId: number): Promise<number> =>
    (await db().query('SELECT count(*)::int AS n FROM workflows WHERE organization_id = $1', [organizationId])).rows[0].n;
  const notFound = (what: string) => (err: unknown) => err instanceof NotFoundError && err.message === `${what} not found`;

  describe('drafts', () => {
    it('refuses an invalid definition with its problems at their paths, and stores nothing', async () => {
      const before = await workflowCount(org.id);
      await assert.rejects(drafts.create(TEST_AUTHOR, org.id, sampleDefinition({ statuses: ['Triage', 'Open'], attributes: { x: { type: 'date' } } })), (err: unknown) => {
        assert.ok(err instanceof WorkflowDefinitionInvalidError);
        assert.deepEqual((err.details.validation_errors as { path: string }[]).map((p) => p.path).sort(), ['/attributes/x/type', '/statuses/1']);
        return true;
      });
      assert.equal(await workflowCount(org.id), before);
    });

    it('keeps a workflow to its organization', async () => {
      const { id } = await drafts.create(TEST_AUTHOR, org.id, sampleDefinition());
      await assert.rejects(drafts.get(stranger.id, id), notFound('workflow'));
      await assert.rejects(drafts.replaceDraft(TEST_AUTHOR, stranger.id, id, sampleDefinition({ name: 'Taken' })), notFound('workflow'));
      await assert.rejects(publishing.publish(TEST_AUTHOR, stranger.id, id), notFound('workflow'));
      await assert.rejects(publishing.unpublish(TEST_AUTHOR, stranger.id, id), notFound('workflow'));
      assert.deepEqual([(await drafts.get(org.id, id)).name, (await drafts.get(org.id, id)).published], ['Customer escalations', false]);
      assert.deepEqual(await drafts.existingIds(stranger.id, [id]), []);
    });
  });

  describe('publishing', () => {
    it('freezes each publish as the next version; a new draft changes no published version', async () => {
      const first = await givenPublishedWorkflow(ctx, org.id);
      const id = first.workflowId;
      await drafts.replaceDraft(TEST_AUTHOR, org.id, id, sampleDefinition({ name: 'Renamed' }));
      assert.equal((await published.state(id))!.current!.name, 'Customer escalations');
      const view = await publishing.publish(TEST_AUTHOR, org.id, id);
      assert.deepEqual([view.version, view.name], [2, 'Renamed']);
      assert.equal((await published.state(id))!.current!.version, 2);
      assert.equal((await published.version(id, 1)).name, 'Customer escalations');
      const versions = await db().query('SELECT version, definition->>\'name\' AS name FROM workflow_versions WHERE workflow_id = $1 ORDER BY version', [id]);
      assert.deepEqual(versions.rows, [{ version: 1, name: 'Customer escalations' }, { version: 2, name: 'Renamed' }]);
    });

    it('unpublishing drops the cached state on this instance at once and bumps cache_generation for the others', async () => {
      const { workflowId: id } = await givenPublishedWorkflow(ctx, org.id);
      assert.equal((await published.state(id))!.published, true);
      const generation = async (): Promise<bigint> => BigInt((await db().query('SELECT generation FROM cache_generation')).rows[0].generation);
      const before = await generation();
      await publishing.unpublish(TEST_AUTHOR, org.id, id);
      assert.equal((await published.state(id))!.published, false);
      assert.ok((await generation()) > before);
      await publishing.publish(TEST_AUTHOR, org.id, id);
      assert.deepEqual([(await published.state(id))!.published, (await published.state(id))!.current!.version], [true, 1], 'the unchanged draft is published again as the version it is');
    });

    it('a change names the key it invalidated with the number it made, and the log keeps the newest 10,000 rows', async () => {
      const { workflowId: id } = await givenPublishedWorkflow(ctx, org.id);
      const { rows: [{ generation }] } = await db().query('SELECT generation FROM cache_generation');
      await db().query(`INSERT INTO cache_invalidations (generation, cache, key) VALUES ($1::bigint - 9999, 'old', 'pruned'), ($1::bigint - 9998, 'old', 'kept')`, [generation]);
      await publishing.unpublish(TEST_AUTHOR, org.id, id);
      const { rows } = await db().query(`SELECT cache, key FROM cache_invalidations WHERE cache = 'old' OR generation > $1 ORDER BY generation`, [generation]);
      assert.deepEqual(rows, [{ cache: 'old', key: 'kept' }, { cache: 'workflow-states', key: String(id) }]);
    });
  });

  describe('webhook URLs', () => {
    it('generates one token per workflow, stored as its hash and sealed, never in clear', async () => {
      const { workflowId: id } = await givenPublishedWorkflow(ctx, org.id);
      await assert.rejects(webhooks.get(org.id, id), notFound('webhook'));
      const first = await webhooks.generate(TEST_AUTHOR, org.id, id);
      assert.match(first.token, /^whk_[A-Za-z0-9_-]{43}$/);
      assert.equal(first.url, `${ctx.env.PUBLIC_BASE_URL}/api/external/v1/workflows/${id}/case_webhooks?token=${first.token}`);
      assert.deepEqual(await webhooks.generate(TEST_AUTHOR, org.id, id), first, 'asking again returns the same URL');
      assert.deepEqual(await webhooks.get(org.id, id), first);
      const { rows } = await db().query('SELECT webhook_token_hash, webhook_token_ciphertext FROM workflows WHERE id = $1', [id]);
      assert.deepEqual(rows[0].webhook_token_hash, createHash('sha256').update(first.token).digest());
      assert.ok(!rows[0].webhook_token_ciphertext.includes(first.token.slice(4)));
      assert.deepEqual((await published.state(id))!.webhookTokenHash, rows[0].webhook_token_hash, 'intake sees the new token at once');
      await assert.rejects(webhooks.get(stranger.id, id), notFound('workflow'));
      await assert.rejects(webhooks.generate(TEST_AUTHOR, stranger.id, id), notFound('workflow'));
    });

    it('refuses a webhook on a workflow that is unpublished or takes no direct cases', async () => {
      const { id: draft } = await drafts.create(TEST_AUTHOR, org.id, sampleDefinition());
      await assert.rejects(webhooks.generate(TEST_AUTHOR, org.id, draft), WebhookUnavailableError);
      const email = await givenPublishedWorkflow(ctx, org.id, sampleDefinition({ case_source: 'email' }));
      await assert.rejects(webhooks.generate(TEST_AUTHOR, org.id, email.workflowId), WebhookUnavailableError);
      const { rows } = await db().query('SELECT count(*)::int AS n FROM workflows WHERE id = ANY($1) AND webhook_token_hash IS NOT NULL', [[draft, email.workflowId]]);
      assert.equal(rows[0].n, 0);
    });

    it('rotates a token for the operator: a new one, shown again by get, and nothing to rotate without one', async () => {
      const { workflowId: id } = await givenPublishedWorkflow(ctx, org.id);
      await assert.rejects(webhooks.rotate(TEST_AUTHOR, id), notFound('webhook'));
      const first = await webhooks.generate(TEST_AUTHOR, org.id, id);
      const rotated = await webhooks.rotate(TEST_AUTHOR, id);
      assert.notEqual(rotated.token, first.token);
      assert.deepEqual(await webhooks.get(org.id, id), rotated);
      assert.deepEqual((await published.state(id))!.webhookTokenHash, createHash('sha256').update(rotated.token).digest());
    });
  });
});

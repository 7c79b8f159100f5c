/**
 * The cases use cases behind the API after creation (GetCaseService, ChangeCaseStatusService,
 * WorkflowIntake) and the admin read side (CaseQueriesService on PostgresCaseQueries): the
 * organization and workflow scoping, the status rules against the case's own version, and
 * what is stored.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CaseQueries } from '../../src/modules/cases/application/case-queries.js';
import { CaseQueriesService, type ListRequest } from '../../src/modules/cases/application/case-queries.service.js';
import { ChangeCaseStatusService } from '../../src/modules/cases/application/change-case-status.service.js';
import { CreateCaseService } from '../../src/modules/cases/application/create-case.service.js';
import { GetCaseService } from '../../src/modules/cases/application/get-case.service.js';
import { WorkflowIntake } from '../../src/modules/cases/application/workflow-intake.js';
import { StatusNotDeclaredError, StatusReservedForEngineError } from '../../src/modules/cases/domain/case.errors.js';
import type { CaseMode } from '../../src/modules/cases/domain/case.js';
import { apiCaseCommand, webhookCaseCommand } from '../../src/modules/cases/http/case-commands.js';
import { WorkflowDraftsService } from '../../src/modules/workflows/application/workflow-drafts.service.js';
import { WorkflowPublishingService } from '../../src/modules/workflows/application/workflow-publishing.service.js';
import { WorkflowNotDirectError, WorkflowNotPublishedError } from '../../src/modules/workflows/domain/workflow.errors.js';
import type { WorkflowVersion } from '../../src/modules/workflows/domain/workflow-version.js';
import { NotFoundError } from '../../src/shared/errors/app-error.js';
import { type IntegrationContext, startIntegrationContext } from '../support/integration-context.js';
import { givenOrganization, givenPublishedWorkflow, type IntegrationOrganization, TEST_AUTHOR } from '../support/integration-scenario.js';
import { sampleDefinition } from '../support/scenario.js';
import { closeDb, db } from '../support/test-app.js';

describe('cases after intake (integration)', () => {
  let ctx: IntegrationContext;
  let org: IntegrationOrganization;
  let stranger: IntegrationOrganization;
  let workflow: WorkflowVersion;

  before(async () => {
    ctx = await startIntegrationContext();
    [org, stranger] = [await givenOrganization(ctx), await givenOrganization(ctx)];
    workflow = await givenPublishedWorkflow(ctx, org.id);
  });
  after(async () => {
    await ctx.close();
    await closeDb();
  });

  const email = { customer_email: 'c@b.co' };
  async function givenApiCase(on = workflow, mode: CaseMode = 'live'): Promise<number> {
    const text = JSON.stringify({ mode, attributes: email });
    return (await ctx.get(CreateCaseService).execute(apiCaseCommand(org.api, on, { mode, attributes: email }, text, undefined))).id;
  }
  async function givenWebhookCase(on = workflow): Promise<number> {
    const text = JSON.stringify(email);
    return (await ctx.get(CreateCaseService).execute(webhookCaseCommand({ organizationId: org.id, version: on }, { kind: 'json', value: email, text }))).id;
  }
  const stored = async (caseId: number) => (await db().query('SELECT status, outcome FROM cases WHERE id = $1', [caseId])).rows[0];
  const notFound = (what: string) => (err: unknown) => err instanceof NotFoundError && err.message === `${what} not found`;

  describe('WorkflowIntake.forApi', () => {
    it('gives the published version to its organization only', async () => {
      assert.equal((await ctx.get(WorkflowIntake).forApi(org.id, workflow.workflowId)).version, workflow.version);
      await assert.rejects(ctx.get(WorkflowIntake).forApi(stranger.id, workflow.workflowId), notFound('workflow'));
    });

    it('refuses a workflow never published, and one that takes no API cases', async () => {
      const drafts = ctx.get(WorkflowDraftsService);
      const draft = await drafts.create(TEST_AUTHOR, org.id, sampleDefinition());
      await assert.rejects(ctx.get(WorkflowIntake).forApi(org.id, draft.id), WorkflowNotPublishedError);
      const ticketing = await givenPublishedWorkflow(ctx, org.id, sampleDefinition({ case_source: 'ticketing' }));
      await assert.rejects(ctx.get(WorkflowIntake).forApi(org.id, ticketing.workflowId), WorkflowNotDirectError);
    });
  });

  describe('GetCaseService', () => {
    it('finds a case by its organization and workflow only', async () => {
      const caseId = await givenApiCase();
      const other = await givenPublishedWorkflow(ctx, org.id);
      const get = ctx.get(GetCaseService);
      assert.equal((await get.execute(org.api, workflow.workflowId, caseId)).id, caseId);
      await assert.rejects(get.execute(org.api, other.workflowId, caseId), notFound('case'));
      await assert.rejects(get.execute(stranger.api, workflow.workflowId, caseId), notFound('case'));
    });
  });

  describe('ChangeCaseStatusService', () => {
    it('moves a case, closing it with the workflow\'s default outcome and reopening it without one, each move on the timeline', async () => {
      const caseId = await givenApiCase();
      const change = ctx.get(ChangeCaseStatusService);
      assert.equal((await change.execute(org.api, workflow.workflowId, caseId, 'Waiting on customer')).status, 'Waiting on customer');
      assert.deepEqual(await stored(caseId), { status: 'Waiting on customer', outcome: null });
      await change.execute(org.api, workflow.workflowId, caseId, 'Closed');
      assert.deepEqual(await stored(caseId), { status: 'Closed', outcome: 'Resolved' });
      await change.execute(org.api, workflow.workflowId, caseId, 'Open');
      assert.deepEqual(await stored(caseId), { status: 'Open', outcome: null });
      const { events: timeline } = await ctx.get(CaseQueriesService).timeline(org.id, caseId, { limit: 100 });
      assert.deepEqual(timeline.map((e) => [e.type, e.by]), [
        ['created', { type: 'api_token', id: org.api.tokenId, name: org.api.name }],
        ...Array.from({ length: 3 }, () => ['status_changed', { type: 'api_token', id: org.api.tokenId, name: org.api.name }]),
      ]);
    });

    it('refuses Error and undeclared statuses, and leaves the case as it was', async () => {
      const caseId = await givenApiCase();
      const change = ctx.get(ChangeCaseStatusService);
      await assert.rejects(change.execute(org.api, workflow.workflowId, caseId, 'Error'), StatusReservedForEngineError);
      await assert.rejects(change.execute(org.api, workflow.workflowId, caseId, 'Escalated'), StatusNotDeclaredError);
      assert.deepEqual(await stored(caseId), { status: 'Open', outcome: null });
      assert.equal((await ctx.get(CaseQueriesService).timeline(org.id, caseId, { limit: 100 })).events.length, 1);
    });

    it('checks a move against the version the case runs on, not the newest', async () => {
      const versioned = await givenPublishedWorkflow(ctx, org.id);
      const onFirst = await givenApiCase(versioned);
      const statuses = ['Triage', 'Waiting on customer', 'Escalated'];
      await ctx.get(WorkflowDraftsService).replaceDraft(TEST_AUTHOR, org.id, versioned.workflowId, sampleDefinition({ statuses }));
      await ctx.get(WorkflowPublishingService).publish(TEST_AUTHOR, org.id, versioned.workflowId);
      const onSecond = await givenApiCase(await ctx.get(WorkflowIntake).forApi(org.id, versioned.workflowId));
      const change = ctx.get(ChangeCaseStatusService);
      await assert.rejects(change.execute(org.api, versioned.workflowId, onFirst, 'Escalated'), StatusNotDeclaredError);
      assert.equal((await change.execute(org.api, versioned.workflowId, onSecond, 'Escalated')).status, 'Escalated');
    });

    it('answers not found for another organization\'s case or another workflow\'s, and moves nothing', async () => {
      const caseId = await givenApiCase();
      const other = await givenPublishedWorkflow(ctx, org.id);
      const change = ctx.get(ChangeCaseStatusService);
      await assert.rejects(change.execute(stranger.api, workflow.workflowId, caseId, 'Closed'), notFound('case'));
      await assert.rejects(change.execute(org.api, other.workflowId, caseId, 'Closed'), notFound('case'));
      assert.deepEqual(await stored(caseId), { status: 'Open', outcome: null });
    });
  });

  describe('admin read side', () => {
    it('lists newest first, by each filter, one organization only', async () => {
      const listed = await givenPublishedWorkflow(ctx, org.id);
      const live = await givenApiCase(listed);
      const test = await givenApiCase(listed, 'test');
      const hooked = await givenWebhookCase(listed);
      await ctx.get(ChangeCaseStatusService).execute(org.api, listed.workflowId, live, 'Triage');
      const queries = ctx.get(CaseQueriesService);
      const ids = async (filter: Partial<ListRequest>) => (await queries.list(org.id, { workflowId: listed.workflowId, limit: 10, ...filter })).cases.map((c) => c.id);
      assert.deepEqual(await ids({}), [hooked, test, live]);
      assert.deepEqual(await ids({ mode: 'test' }), [test]);
      assert.deepEqual(await ids({ source: 'Webhook' }), [hooked]);
      assert.deepEqual(await ids({ statuses: ['Triage'] }), [live]);
      assert.deepEqual(await ids({ statuses: ['Triage', 'Open'], mode: 'live' }), [hooked, live]);
      assert.deepEqual((await queries.list(stranger.id, { workflowId: listed.workflowId, limit: 10 })).cases, []);
      await assert.rejects(queries.get(stranger.id, live), notFound('case'));
      await assert.rejects(queries.timeline(stranger.id, live, { limit: 100 }), notFound('case'));
    });

    it('pages with a cursor that stays put when newer cases arrive', async () => {
      const paged = await givenPublishedWorkflow(ctx, org.id);
      const created: number[] = [];
      for (let i = 0; i < 5; i++) created.push(await givenApiCase(paged));
      const queries = ctx.get(CaseQueriesService);
      const first = await queries.list(org.id, { workflowId: paged.workflowId, limit: 2 });
      assert.deepEqual(first.cases.map((c) => c.id), [created[4], created[3]]);
      assert.equal(typeof first.nextCursor, 'string');
      await givenApiCase(paged);
      const second = await queries.list(org.id, { workflowId: paged.workflowId, limit: 2, cursor: first.nextCursor! });
      assert.deepEqual(second.cases.map((c) => c.id), [created[2], created[1]]);
      const last = await queries.list(org.id, { workflowId: paged.workflowId, limit: 2, cursor: second.nextCursor! });
      assert.deepEqual([last.cases.map((c) => c.id), last.nextCursor], [[created[0]], null]);
    });

    it('PostgresCaseQueries reads one case more than the page, which tells the service there is a next page', async () => {
      const port = ctx.get(CaseQueries);
      const counted = await givenPublishedWorkflow(ctx, org.id);
      for (let i = 0; i < 3; i++) await givenApiCase(counted);
      assert.equal((await port.list(org.id, { workflowId: counted.workflowId, limit: 2 })).length, 3);
      assert.equal((await port.list(org.id, { workflowId: counted.workflowId, limit: 3 })).length, 3);
      assert.equal(await port.timeline(stranger.id, 1, '0', 10), null);
    });
  });
});

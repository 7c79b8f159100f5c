/**
 * CreateCaseService, the one way a case comes into being, with the commands the API and webhook
 * controllers build (case-commands.ts): what is stored, what is refused, idempotency and the
 * number rule, against the real Postgres.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CreateCaseService, IdempotencyKeyReusedError } from '../../src/modules/cases/application/create-case.service.js';
import { GetCaseService } from '../../src/modules/cases/application/get-case.service.js';
import { AttributesInvalidError } from '../../src/modules/cases/domain/case.errors.js';
import { CaseStatementParts } from '../../src/modules/cases/domain/case-statement-parts.js';
import { CaseMetrics } from '../../src/modules/cases/infrastructure/case-metrics.js';
import { PostgresCaseRepository } from '../../src/modules/cases/infrastructure/postgres-case.repository.js';
import { apiCaseCommand, webhookCaseCommand } from '../../src/modules/cases/http/case-commands.js';
import type { CreateCaseRequest } from '../../src/modules/cases/http/create-case.request.js';
import type { WorkflowVersion } from '../../src/modules/workflows/domain/workflow-version.js';
import { InvalidRequestError, UnstorableValueError } from '../../src/shared/errors/app-error.js';
import { NUMBER_TOO_LARGE } from '../../src/shared/json/json-numbers.js';
import { TypeOrmTransactionRunner } from '../../src/shared/database/typeorm-transaction-runner.js';
import { MetricsRegistry } from '../../src/shared/metrics/metrics.module.js';
import { type IntegrationContext, startIntegrationContext } from '../support/integration-context.js';
import { givenOrganization, givenPublishedWorkflow, type IntegrationOrganization } from '../support/integration-scenario.js';
import { closeDb, db, transactionsStoring } from '../support/test-app.js';
import { impatientDataSource, slowCommits } from '../support/unanswered-commits.js';

describe('CreateCaseService (integration)', () => {
  let ctx: IntegrationContext;
  let org: IntegrationOrganization;
  let workflow: WorkflowVersion;
  let createCase: CreateCaseService;

  before(async () => {
    ctx = await startIntegrationContext();
    createCase = ctx.get(CreateCaseService);
    org = await givenOrganization(ctx);
    workflow = await givenPublishedWorkflow(ctx, org.id);
  });
  after(async () => {
    await ctx.close();
    await closeDb();
  });

  /** The command of `POST .../cases` with this exact body text. */
  const apiCommand = (text: string, idempotencyKey?: string, on = workflow, caller = org.api) =>
    apiCaseCommand(caller, on, JSON.parse(text) as CreateCaseRequest, text, idempotencyKey);
  const webhookCommand = (text: string) => webhookCaseCommand({ organizationId: org.id, version: workflow }, { kind: 'json', value: JSON.parse(text), text });
  const casesOf = async (workflowId: number): Promise<number> =>
    (await db().query('SELECT count(*)::int AS n FROM cases WHERE workflow_id = $1', [workflowId])).rows[0].n;
  const storedRow = async (id: number) =>
    (await db().query('SELECT source, mode, status, subject, attributes::text AS attributes, workflow_version FROM cases WHERE id = $1', [id])).rows[0];
  const createdByApi = async (): Promise<number> => {
    const metric = await ctx.get(MetricsRegistry).getSingleMetric('cases_created_total')!.get();
    return metric.values.find((v) => v.labels.source === 'API')?.value ?? 0;
  };

  it('stores an API case on the published version, Open, with its numbers exactly as sent and its creation on the timeline', async () => {
    const text = '{"subject": "Refund", "attributes": {"customer_email": "a@b.co", "amount": 1.10, "raw": 18446744073709551615}}';
    const { id, case: created, replayed } = await createCase.execute(apiCommand(text));
    assert.equal(replayed, false);
    assert.deepEqual([created.status, created.outcome, created.subject, created.mode, created.source], ['Open', null, 'Refund', 'live', 'API']);
    const row = await storedRow(id);
    assert.deepEqual([row.source, row.mode, row.status, row.workflow_version], ['API', 'live', 'Open', workflow.version]);
    assert.match(row.attributes, /"amount": 1\.10/);
    assert.match(row.attributes, /"raw": 18446744073709551615/);
    assert.equal(created.attributes, row.attributes, 'the answer carries the stored text');
    const events = await db().query('SELECT type, actor FROM case_events WHERE case_id = $1 ORDER BY id', [id]);
    assert.deepEqual(events.rows, [{ type: 'created', actor: `api_token:${org.api.tokenId}` }]);
  });

  it('stores a webhook case as live, with the default subject, and answers with its id only', async () => {
    const result = await createCase.execute(webhookCommand('{"customer_email": "w@b.co", "event_id": "evt_1"}'));
    assert.deepEqual(Object.keys(result).sort(), ['id', 'replayed']);
    const row = await storedRow(result.id);
    assert.deepEqual([row.source, row.mode, row.status], ['Webhook', 'live', 'Open']);
    assert.match(row.subject, /^Customer escalations via Webhook - \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
    assert.match(row.attributes, /"event_id": "evt_1"/, 'an undeclared key is kept on a workflow without sensitive data');
  });

  it('refuses a webhook body that is not a JSON object before anything is stored', async () => {
    const before = await casesOf(workflow.workflowId);
    assert.throws(() => webhookCommand('[{"customer_email": "w@b.co"}]'), InvalidRequestError);
    assert.equal(await casesOf(workflow.workflowId), before);
  });

  it('refuses attributes that fail the schema with each problem at its path, and stores nothing', async () => {
    const before = await casesOf(workflow.workflowId);
    await assert.rejects(createCase.execute(apiCommand('{"attributes": {"priority": 7, "vip": "yes"}}')), (err: unknown) => {
      assert.ok(err instanceof AttributesInvalidError);
      const paths = (err.details.validation_errors as { path: string }[]).map((p) => p.path).sort();
      assert.deepEqual(paths, ['', '/priority', '/vip']);
      return true;
    });
    assert.equal(await casesOf(workflow.workflowId), before);
  });

  it('refuses a number that would be stored much longer than it was sent (webhook and API alike), at its path', async () => {
    const before = await casesOf(workflow.workflowId);
    const tooLarge = (err: unknown) =>
      err instanceof AttributesInvalidError && JSON.stringify(err.details.validation_errors) === JSON.stringify([{ path: '/order/total', error: NUMBER_TOO_LARGE }]);
    await assert.rejects(createCase.execute(webhookCommand('{"customer_email": "n@b.co", "order": {"total": 1e41}}')), tooLarge);
    await assert.rejects(createCase.execute(apiCommand('{"attributes": {"customer_email": "n@b.co", "order": {"total": 1e41}}}')), tooLarge);
    assert.equal(await casesOf(workflow.workflowId), before);
    const long = '3.14159265358979323846264338327950288419716939937510';
    const { id } = await createCase.execute(apiCommand(`{"attributes": {"customer_email": "n@b.co", "amount": ${long}}}`));
    assert.match((await storedRow(id)).attributes, new RegExp(`"amount": ${long.replace('.', '\\.')}`), 'a long number written as long as it was sent is kept');
  });

  it('stores webhook cases arriving together in one transaction, and refuses one whose body Postgres could not store before it is sent', async () => {
    const bodies = ['{"customer_email": "b1@b.co"}', '{"customer_email": "b2@b.co", "note": "x\\u0000y"}', '{"customer_email": "b3@b.co"}'];
    const outcomes = await Promise.allSettled(bodies.map((text) => createCase.execute(webhookCommand(text))));
    assert.equal(outcomes[1].status, 'rejected');
    assert.ok((outcomes[1] as PromiseRejectedResult).reason instanceof UnstorableValueError);
    const ids = [outcomes[0], outcomes[2]].map((o) => (o as PromiseFulfilledResult<{ id: number }>).value.id);
    const rows = await db().query<{ id: string; events: number }>(
      'SELECT c.id, (SELECT count(*)::int FROM case_events e WHERE e.case_id = c.id) AS events FROM cases c WHERE c.id = ANY($1) ORDER BY c.id',
      [ids],
    );
    assert.deepEqual(rows.rows.map((r) => [Number(r.id), r.events]), ids.sort((a, b) => a - b).map((id) => [id, 1]));
    const together = await Promise.all([1, 2, 3].map((n) => createCase.execute(webhookCommand(`{"customer_email": "t${n}@b.co"}`))));
    assert.equal(await transactionsStoring(together.map((c) => c.id)), 1);
  });

  it('answers API cases arriving together with their case when their COMMIT went unanswered but committed, each stored once', async () => {
    const dataSource = await impatientDataSource();
    const dropSlowCommits = await slowCommits('cases', "NEW.subject LIKE 'unanswered-%'");
    try {
      const repository = new PostgresCaseRepository(dataSource, ctx.get(CaseMetrics), new TypeOrmTransactionRunner(dataSource), ctx.get(CaseStatementParts));
      const impatient = new CreateCaseService(repository, ctx.get(CaseMetrics));
      const subjects = [1, 2, 3].map((n) => `unanswered-${n}`);
      const created = await Promise.all(subjects.map((subject) => impatient.execute(apiCommand(`{"subject": "${subject}", "attributes": {"customer_email": "u@b.co"}}`))));
      assert.deepEqual(created.map((c) => c.case.subject), subjects);
      assert.equal(await transactionsStoring(created.map((c) => c.id)), 1);
      const stored = await db().query<{ id: string; subject: string }>('SELECT id, subject FROM cases WHERE subject = ANY($1) ORDER BY subject', [subjects]);
      assert.deepEqual(stored.rows.map((r) => [Number(r.id), r.subject]), created.map((c) => [c.id, c.case.subject]));
      for (const c of created) assert.deepEqual(await ctx.get(GetCaseService).execute(org.api, workflow.workflowId, c.id), c.case, 'the answer a COMMIT answered in time would have carried');
    } finally {
      await dropSlowCommits();
      await dataSource.destroy();
    }
  });

  it('counts live cases in cases_created_total, never test cases', async () => {
    const before = await createdByApi();
    await createCase.execute(apiCommand('{"mode": "test", "attributes": {"customer_email": "t@b.co"}}'));
    assert.equal(await createdByApi(), before);
    await createCase.execute(apiCommand('{"attributes": {"customer_email": "l@b.co"}}'));
    assert.equal(await createdByApi(), before + 1);
  });

  describe('idempotency', () => {
    const body = '{"attributes": {"customer_email": "i@b.co"}}';

    it('replays the first case for the same key and request, storing one case', async () => {
      const first = await createCase.execute(apiCommand(body, 'replay-1'));
      const again = await createCase.execute(apiCommand(body, 'replay-1'));
      assert.deepEqual([first.replayed, again.replayed, again.id], [false, true, first.id]);
      assert.deepEqual(again.case, first.case);
      const stored = await db().query('SELECT count(*)::int AS n FROM idempotency_keys WHERE organization_id = $1 AND key = $2', [org.id, 'replay-1']);
      assert.equal(stored.rows[0].n, 1);
    });

    it('stores each keyed case in a transaction of its own, even when they arrive together', async () => {
      const results = await Promise.all([1, 2, 3].map((n) => createCase.execute(apiCommand(body, `apart-${n}`))));
      assert.equal(await transactionsStoring(results.map((r) => r.id)), 3);
    });

    it('creates one case when the same key races itself', async () => {
      const results = await Promise.all([1, 2, 3].map(() => createCase.execute(apiCommand(body, 'race-1'))));
      assert.equal(new Set(results.map((r) => r.id)).size, 1);
      assert.deepEqual(results.map((r) => r.replayed).sort(), [false, true, true]);
    });

    it('refuses the key with another request, even one that differs only in its text or its workflow', async () => {
      const other = await givenPublishedWorkflow(ctx, org.id);
      await createCase.execute(apiCommand(body, 'reused-1'));
      await assert.rejects(createCase.execute(apiCommand('{"attributes": {"customer_email": "other@b.co"}}', 'reused-1')), IdempotencyKeyReusedError);
      await assert.rejects(createCase.execute(apiCommand('{"attributes":{"customer_email":"i@b.co"}}', 'reused-1')), IdempotencyKeyReusedError);
      await assert.rejects(createCase.execute(apiCommand(body, 'reused-1', other)), IdempotencyKeyReusedError);
      assert.equal(await casesOf(other.workflowId), 0);
    });

    it('keeps keys apart per organization', async () => {
      const otherOrg = await givenOrganization(ctx);
      const otherWorkflow = await givenPublishedWorkflow(ctx, otherOrg.id);
      const mine = await createCase.execute(apiCommand(body, 'shared-key'));
      const theirs = await createCase.execute(apiCommand(body, 'shared-key', otherWorkflow, otherOrg.api));
      assert.equal(theirs.replayed, false);
      assert.notEqual(theirs.id, mine.id);
      await assert.rejects(ctx.get(GetCaseService).execute(otherOrg.api, workflow.workflowId, mine.id), /case not found/);
    });
  });
});

/**
 * The search indexer's view of the change feed (CaseSearchFeed.changedAfter) on the real
 * Postgres: a case changed less than `settledMs` ago is held back, and so is every later change
 * of its workflow, so the indexer's position never passes over a change it has not read.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { CaseSearchFeed } from '../../src/modules/cases/application/case-search-feed.js';
import type { WorkflowVersion } from '../../src/modules/workflows/domain/workflow-version.js';
import { type IntegrationContext, startIntegrationContext } from '../support/integration-context.js';
import { nextXid, oldestRunningXid } from '../support/feed-horizon.js';
import { givenCaseOn } from '../support/integration-fixtures.js';
import { givenOrganization, givenPublishedWorkflow, type IntegrationOrganization } from '../support/integration-scenario.js';
import { waitForReplay } from '../support/replicated-postgres.js';
import { closeDb, db } from '../support/test-app.js';

const MINUTE_MS = 60_000;

describe('CaseSearchFeed.changedAfter (integration)', () => {
  let ctx: IntegrationContext;
  let org: IntegrationOrganization;
  let workflow: WorkflowVersion;

  before(async () => {
    ctx = await startIntegrationContext();
    org = await givenOrganization(ctx);
    workflow = await givenPublishedWorkflow(ctx, org.id);
  });
  after(async () => {
    await ctx.close();
    await closeDb();
  });

  const newCase = () => givenCaseOn(ctx, org.id, workflow);
  /** As if the case's last change was `ms` ago (its place in the feed stays where it is). */
  const changedAgo = (caseId: number, ms: number) => db().query(`UPDATE cases SET updated_at = now() - $2::int * interval '1 millisecond' WHERE id = $1`, [caseId, ms]);
  /**
   * Waits until every transaction that had written when it was called has ended: the feed gives
   * a change only then, and other tests' transactions on the same server may be among them.
   */
  const olderTransactionsEnded = async () => {
    const target = await nextXid();
    for (const deadline = Date.now() + 30_000; ; await sleep(5)) {
      if ((await oldestRunningXid()) >= target) return;
      assert.ok(Date.now() < deadline, 'the transactions older than the test\'s writes ended within 30 s');
    }
  };
  const found = async (settledMs: number): Promise<number[]> => {
    await olderTransactionsEnded();
    // With a read replica (test:replica) the feed is read there, as the indexer reads it, without waiting for it: so the test waits until it has replayed the writes.
    const { DATABASE_URL: primary, DATABASE_READ_URL: replica } = process.env;
    if (primary && replica) await waitForReplay(primary, replica);
    const start = { organizationId: org.id, workflowId: workflow.workflowId, xid: '0', caseId: '0' };
    return (await ctx.get(CaseSearchFeed).changedAfter([start], 100, settledMs)).map((c) => c.case.id);
  };

  it('gives the cases changed at least settledMs ago up to the first one changed since, and none after it', async () => {
    const [first, second, third] = [await newCase(), await newCase(), await newCase()];
    assert.deepEqual(await found(0), [first, second, third]);
    assert.deepEqual(await found(MINUTE_MS), [], 'all three changed within the minute');

    await changedAgo(first, 2 * MINUTE_MS);
    await changedAgo(third, 2 * MINUTE_MS);
    assert.deepEqual(await found(MINUTE_MS), [first], 'the third, settled, waits behind the second');

    await changedAgo(second, 2 * MINUTE_MS);
    assert.deepEqual(await found(MINUTE_MS), [first, second, third]);
  });
});

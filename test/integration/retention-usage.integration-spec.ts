/**
 * Purging never changes usage: cases and runs (live and test, per workflow) counted over a
 * period on whole hours are the same before and after a purge, also when two passes run at once.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { givenRetentionWorkflow, type RetentionContext, type RetentionWorkflow, startRetentionContext } from '../support/retention-fixtures.js';

const HOUR = 3600_000;

describe('retention and usage', () => {
  let r: RetentionContext;
  before(async () => {
    r = await startRetentionContext();
  });
  after(() => r.close());

  /** The start of a whole UTC hour `daysAgo` days back. */
  const hourStart = (daysAgo: number) => new Date(Math.floor((Date.now() - daysAgo * 86400_000) / HOUR) * HOUR);

  /**
   * A case created at `at`, with `extraRuns` more runs (later status changes), every run
   * finished a minute after it started; the case Closed at the end when `closed`.
   */
  async function givenCaseAt(w: RetentionWorkflow, at: Date, mode: 'live' | 'test', extraRuns: number, closed: boolean): Promise<number> {
    const caseId = await w.createCase(mode);
    await r.pool.query(
      `INSERT INTO workflow_runs (case_id, organization_id, workflow_id, workflow_version, status, mode)
       SELECT id, organization_id, workflow_id, workflow_version, 'Open', mode FROM cases, generate_series(1, $2) WHERE id = $1`,
      [caseId, extraRuns],
    );
    await r.pool.query(
      `UPDATE workflow_runs SET state = 'succeeded', created_at = $2::timestamptz + (id % 50) * interval '1 minute',
         finished_at = $2::timestamptz + (id % 50 + 1) * interval '1 minute' WHERE case_id = $1`,
      [caseId, at],
    );
    await r.pool.query(`UPDATE cases SET created_at = $2, updated_at = $2::timestamptz + interval '2 hours', status = $3 WHERE id = $1`, [caseId, at, closed ? 'Closed' : 'Open']);
    return caseId;
  }

  /** Two workflows of one organization with cases in the three hours from `start`, live and test, some Closed. */
  async function givenUsage(start: Date, runsPerCase: number): Promise<{ organizationId: number; cases: number }> {
    const first = await givenRetentionWorkflow(r);
    const second = await givenRetentionWorkflow(r, first.organizationId);
    let cases = 0;
    for (const [i, w] of [first, second].entries()) {
      for (let hour = 0; hour < 3; hour++) {
        for (const [n, mode] of (['live', 'live', 'test'] as const).entries()) {
          await givenCaseAt(w, new Date(start.getTime() + hour * HOUR + (n * 17 + i * 5) * 60_000), mode, runsPerCase + n, n !== 1);
          cases++;
        }
      }
    }
    await r.setOverrides(first.organizationId, { runsDays: 7, closedCasesDays: 10 });
    return { organizationId: first.organizationId, cases };
  }

  async function remaining(organizationId: number): Promise<{ cases: number; runs: number }> {
    const { rows } = await r.pool.query<{ cases: number; runs: number }>(
      `SELECT (SELECT count(*) FROM cases WHERE organization_id = $1)::int AS cases, (SELECT count(*) FROM workflow_runs WHERE organization_id = $1)::int AS runs`,
      [organizationId],
    );
    return rows[0]!;
  }

  it('reports the same usage for a whole-hour period before and after a purge', async () => {
    const start = hourStart(40);
    const { organizationId, cases } = await givenUsage(start, 2);
    const period = [start, new Date(start.getTime() + 3 * HOUR)] as const;
    const before = await r.usage(organizationId, ...period);
    assert.equal(before.live.cases + before.test.cases, cases, 'the set-up is what the report counts');

    const purged = await r.pass().pass.run();

    const left = await remaining(organizationId);
    assert.ok(purged.cases > 0 && left.cases > 0, `some cases went (${purged.cases}), the Open ones stayed (${left.cases})`);
    assert.equal(left.runs, 0, 'every run went: with its Closed case, or finished more than 7 days ago');
    assert.deepEqual(await r.usage(organizationId, ...period), before);
    assert.equal((await r.usage(organizationId, period[0], new Date(period[0].getTime() + HOUR))).workflows.length, 2, 'per hour too');
    for (let hour = 0; hour < 3; hour++) {
      const from = new Date(start.getTime() + hour * HOUR);
      const to = new Date(from.getTime() + HOUR);
      const { rows } = await r.pool.query(`SELECT 1 FROM usage_rollups WHERE organization_id = $1 AND hour >= $2 AND hour < $3`, [organizationId, from, to]);
      assert.ok(rows.length > 0, `hour ${hour} has its rollups`);
    }
  });

  it('two passes at once purge each row once and count it once', async () => {
    const start = hourStart(50);
    const { organizationId } = await givenUsage(start, 120);
    const period = [start, new Date(start.getTime() + 3 * HOUR)] as const;
    const before = await r.usage(organizationId, ...period);
    const rows = await remaining(organizationId);
    assert.ok(rows.runs > 1000, 'more runs than two batches');

    const [a, b] = await Promise.all([r.pass().pass.run(), r.pass().pass.run()]);

    assert.equal(a.runs + b.runs, rows.runs, 'every run deleted, by one pass only');
    assert.equal(a.cases + b.cases, rows.cases - (await remaining(organizationId)).cases);
    const { rows: rolled } = await r.pool.query<{ runs: number }>(`SELECT sum(runs)::int AS runs FROM usage_rollups WHERE organization_id = $1`, [organizationId]);
    assert.equal(rolled[0]!.runs, rows.runs, 'each purged run rolled up once');
    assert.deepEqual(await r.usage(organizationId, ...period), before);
  });
});

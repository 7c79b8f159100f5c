/**
 * Retention by whole month partitions (docs/deploying.md, "Time partitions"): a month of runs
 * all past retention goes as one partition, rolled up in usage first; a month holding one run
 * to keep stays, and the batches take what is past retention in it. The database is the test's
 * own, its runs, timeline and deliveries in month partitions from seven months back to three ahead (not in the legacy partition a
 * migrated database starts with).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RetentionPurges } from '../../src/modules/retention/application/retention.ports.js';
import { TimePartitionSchedule } from '../../src/modules/retention/infrastructure/time-partition-schedule.service.js';
import { LOGGER } from '../../src/shared/logging/logger.js';
import { ago, givenRetentionWorkflow, type RetentionContext, startRetentionContext } from '../support/retention-fixtures.js';

describe('retention by month partitions', () => {
  let r: RetentionContext;
  before(async () => {
    r = await startRetentionContext();
    for (const table of ['workflow_runs', 'case_events', 'event_deliveries']) {
      await r.pool.query(`ALTER TABLE ${table} DETACH PARTITION ${table}_legacy`);
      await r.pool.query(`DROP TABLE ${table}_legacy`);
      await r.pool.query(`SELECT ensure_month_partition($1, 'created_at', now() - m * interval '1 month') FROM generate_series(-3, 7) m`, [table]);
    }
  });
  after(() => r.close());

  /** Moves the case's run (row movement: into the partition of its new month), finished then. */
  const ageRunTo = async (caseId: number, state: string, daysAgo: number) => {
    const { rows } = await r.pool.query<{ id: string; partition: string }>(
      `UPDATE workflow_runs SET state = $2, created_at = ${ago('$3::float8')}, finished_at = CASE WHEN $2 = 'waiting' THEN NULL ELSE ${ago('$3::float8')} END
       WHERE case_id = $1 RETURNING id, tableoid::regclass::text AS partition`,
      [caseId, state, daysAgo],
    );
    return { id: Number(rows[0]!.id), partition: rows[0]!.partition };
  };
  const partitionExists = async (name: string) => (await r.pool.query(`SELECT to_regclass($1) IS NOT NULL AS present`, [name])).rows[0].present as boolean;

  it('drops a month whose every run is past retention, its runs still in usage, and keeps a month holding a run to keep', async () => {
    const w = await givenRetentionWorkflow(r);
    // 100 and 160 days ago are in two months, both ending more than RETENTION_RUNS_DAYS (30) ago.
    const old = [await ageRunTo(await w.createCase(), 'succeeded', 100), await ageRunTo(await w.createCase(), 'failed', 100.5)];
    const mixed = [await ageRunTo(await w.createCase(), 'succeeded', 160), await ageRunTo(await w.createCase(), 'waiting', 160)];
    assert.equal(old[0]!.partition, old[1]!.partition);
    assert.notEqual(old[0]!.partition, mixed[0]!.partition);
    const period = [new Date(Date.now() - 200 * 86_400_000), new Date()] as const;
    const usageBefore = await r.usage(w.organizationId, ...period);

    const purged = await r.pass().pass.run();

    assert.equal(await partitionExists(old[0]!.partition), false, `${old[0]!.partition} is dropped`);
    assert.equal(await partitionExists(mixed[0]!.partition), true, `${mixed[0]!.partition} holds a waiting run`);
    const { rows } = await r.pool.query<{ id: string }>(`SELECT id FROM workflow_runs WHERE id = ANY($1::bigint[]) ORDER BY id`, [[...old, ...mixed].map((run) => run.id)]);
    assert.deepEqual(rows.map((row) => Number(row.id)), [mixed[1]!.id], 'the finished run of the kept month goes by the batches');
    assert.equal(purged.runs, 3);
    assert.deepEqual(await r.usage(w.organizationId, ...period), usageBefore);
  });

  it('the worker creates the months ahead once however many workers ask, moving rows the default partition took into their month', async () => {
    const [{ name }] = (await r.pool.query(`SELECT 'workflow_runs_p' || to_char((now() + interval '3 months') AT TIME ZONE 'UTC', 'YYYYMM') AS name`)).rows;
    await r.pool.query(`ALTER TABLE workflow_runs DETACH PARTITION ${name}`);
    await r.pool.query(`DROP TABLE ${name}`);
    const w = await givenRetentionWorkflow(r);
    const ahead = await r.pool.query<{ id: string; partition: string }>(
      `UPDATE workflow_runs SET created_at = date_trunc('month', (now() + interval '3 months') AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' + interval '1 hour'
       WHERE case_id = $1 RETURNING id, tableoid::regclass::text AS partition`,
      [await w.createCase()],
    );
    assert.equal(ahead.rows[0]!.partition, 'workflow_runs_default');

    const workers = [0, 1].map(() => new TimePartitionSchedule(r.ctx.get(RetentionPurges), r.ctx.get(LOGGER)));
    const created = await Promise.all(workers.map((worker) => worker.createAhead()));

    assert.deepEqual(created.sort(), [0, 1]);
    const { rows } = await r.pool.query(`SELECT tableoid::regclass::text AS partition FROM workflow_runs WHERE id = $1`, [ahead.rows[0]!.id]);
    assert.equal(rows[0].partition, name);
  });

  it('drops the past months of the timeline and of deliveries once they are empty, and keeps a month with a row', async () => {
    const w = await givenRetentionWorkflow(r);
    const { rows } = await r.pool.query<{ partition: string }>(
      `UPDATE case_events SET created_at = ${ago(100)} WHERE case_id = $1 RETURNING tableoid::regclass::text AS partition`,
      [await w.createCase()],
    );
    const kept = rows[0]!.partition;
    const month = (table: string, monthsAgo: number) => r.pool.query(`SELECT $1 || '_p' || to_char((now() - $2 * interval '1 month') AT TIME ZONE 'UTC', 'YYYYMM') AS name`, [table, monthsAgo]).then((q) => q.rows[0].name as string);
    // (Passes of the tests before dropped the empty months: they come back empty.)
    for (const table of ['case_events', 'event_deliveries']) await r.pool.query(`SELECT ensure_month_partition($1, 'created_at', now() - interval '6 months')`, [table]);
    const emptied = [await month('case_events', 6), await month('event_deliveries', 6)];
    const current = [await month('case_events', 0), await month('event_deliveries', 0)];
    for (const name of [kept, ...emptied, ...current]) assert.equal(await partitionExists(name), true, `${name} is there before the pass`);

    await r.pass().pass.run();

    for (const name of emptied) assert.equal(await partitionExists(name), false, `${name}, past and empty, is dropped`);
    for (const name of [kept, ...current]) assert.equal(await partitionExists(name), true, `${name} is kept`);
  });
});

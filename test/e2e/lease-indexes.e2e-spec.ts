import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { partitionReads, partitionView } from '../support/partition-plans.js';
import { closeDb, db } from '../support/test-app.js';

/** The relays' look for a dead worker's runs (RunQueue.takeExpired), as a prepared statement keeps it. */
const EXPIRED_RUNS = `UPDATE workflow_runs SET enqueued_at = now()
  WHERE id IN (SELECT id FROM workflow_runs
               WHERE state = 'running' AND locked_until < now() AND (enqueued_at IS NULL OR enqueued_at < locked_until)
               ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
  RETURNING id`;

/** The same for deliveries (DeliveryRepository.takeExpired). */
const EXPIRED_DELIVERIES = `UPDATE event_deliveries SET enqueued_at = now()
  WHERE id IN (
    SELECT d.id FROM event_deliveries d
    WHERE d.state = 'pending' AND d.next_attempt_at <= now() AND d.locked_until < now() AND d.enqueued_at < d.locked_until
      AND NOT EXISTS (SELECT 1 FROM event_deliveries e
                      WHERE e.subscription_id = d.subscription_id AND e.case_id = d.case_id AND e.state = 'pending' AND e.id < d.id)
    ORDER BY d.id LIMIT $1 FOR UPDATE SKIP LOCKED)
  RETURNING id`;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

const nodes = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodes)];

/**
 * How the generic plan of `sql` (what a prepared statement ends up with) reads the partitions
 * with rows (index names, or "Seq Scan"; see partition-plans.ts), after `fill` wrote a
 * backlog, inside a transaction that is rolled back. Rows are written without their case or
 * event (no foreign key check, and no trigger: they name their organization).
 */
async function genericPlan(fill: string, sql: string): Promise<string[]> {
  const client = await db().connect();
  try {
    await client.query('BEGIN');
    await client.query(`SET LOCAL session_replication_role = replica`);
    await client.query(fill);
    await client.query('ANALYZE workflow_runs; ANALYZE event_deliveries');
    await client.query(`SET LOCAL plan_cache_mode = force_generic_plan`);
    await client.query(`PREPARE expired(int) AS ${sql}`);
    const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`EXPLAIN (FORMAT JSON) EXECUTE expired(500)`);
    const view = await partitionView(client, ['workflow_runs', 'event_deliveries']);
    return partitionReads(nodes(rows[0]!['QUERY PLAN'][0].Plan), view).map((n) => n.read);
  } finally {
    await client.query('ROLLBACK');
    await client.query('DEALLOCATE ALL'); // a prepared statement outlives the transaction
    client.release();
  }
}

describe('the relays\' look for work whose worker died', () => {
  after(closeDb);

  it('reads only leased runs, even with a large backlog of finished and pending runs', async () => {
    const reads = await genericPlan(
      `INSERT INTO workflow_runs (case_id, organization_id, workflow_id, workflow_version, status, mode, state, enqueued_at)
       SELECT -g, 1, 1, 1, 'Open', 'live', CASE WHEN g % 4 = 0 THEN 'pending' ELSE 'succeeded' END, now() FROM generate_series(1, 40000) g`,
      EXPIRED_RUNS,
    );
    assert.ok(reads.length > 0, JSON.stringify(reads));
    assert.deepEqual(reads.filter((r) => r !== 'workflow_runs_id'), ['workflow_runs_leased'], JSON.stringify(reads));
  });

  it('reads only leased deliveries, even with a large backlog of delivered and pending ones', async () => {
    const reads = await genericPlan(
      `INSERT INTO event_deliveries (organization_id, event_id, subscription_id, case_id, state, enqueued_at)
       SELECT 1, -g, -(g % 50), -g, CASE WHEN g % 4 = 0 THEN 'pending' ELSE 'delivered' END, now() FROM generate_series(1, 40000) g`,
      EXPIRED_DELIVERIES,
    );
    assert.ok(reads.includes('event_deliveries_leased'), JSON.stringify(reads));
    assert.ok(!reads.includes('Seq Scan'), `sequential scan: ${JSON.stringify(reads)}`);
  });
});

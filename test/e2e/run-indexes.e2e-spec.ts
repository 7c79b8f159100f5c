import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type pg from 'pg';
import { partitionReads, partitionView } from '../support/partition-plans.js';
import { closeDb, db } from '../support/test-app.js';

/** The supersede look-up of a status change (CHANGE_STATUS_SQL), as a prepared statement keeps it. */
const SUPERSEDE = `UPDATE workflow_runs SET state = 'superseded', finished_at = now(), locked_until = NULL
                   WHERE case_id = $1 AND state IN ('pending', 'running', 'waiting') AND id IS DISTINCT FROM $2 RETURNING id`;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}

const nodes = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodes)];

/**
 * How the generic plan of the supersede look-up, made when the table holds many finished runs
 * and no unfinished one (an empty queue), reads the partitions with rows (see
 * partition-plans.ts), inside a transaction that is rolled back.
 */
async function genericPlanAfterEmptyQueue(client: pg.PoolClient) {
  await client.query(`SET LOCAL session_replication_role = replica`); // rows without their case: no foreign key check
  await client.query(
    `INSERT INTO workflow_runs (case_id, organization_id, workflow_id, workflow_version, status, mode, state)
     SELECT -g, 1, 1, 1, 'Open', 'live', 'succeeded' FROM generate_series(1, 20000) g`,
  );
  await client.query('ANALYZE workflow_runs');
  await client.query(`SET LOCAL plan_cache_mode = force_generic_plan`);
  await client.query(`PREPARE supersede(bigint, bigint) AS ${SUPERSEDE}`);
  const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`EXPLAIN (FORMAT JSON) EXECUTE supersede(1, 2)`);
  await client.query('DEALLOCATE supersede');
  return partitionReads(nodes(rows[0]!['QUERY PLAN'][0].Plan), await partitionView(client, ['workflow_runs']));
}

async function inRolledBackTransaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await db().connect();
  try {
    await client.query('BEGIN');
    return await work(client);
  } finally {
    await client.query('ROLLBACK');
    client.release();
  }
}

describe('indexes of workflow_runs', () => {
  after(closeDb);

  it('a status change reads only its own case’s runs, even with a plan made on an empty queue', async () => {
    const scans = await inRolledBackTransaction(genericPlanAfterEmptyQueue);
    assert.ok(scans.length > 0, JSON.stringify(scans));
    assert.ok(!scans.some((n) => n.read === 'Seq Scan'), `sequential scan: ${JSON.stringify(scans)}`);
    for (const scan of scans) {
      assert.match(scan['Index Cond'] ?? '', /case_id/, `index ${scan.read} is read without the case: ${JSON.stringify(scans)}`);
    }
  });
});

/**
 * How long a killed worker's work took to be taken over. Right after the kill, every run and
 * delivery of the scenario that someone could be holding is noted: runs pending, running or
 * due after a wait, deliveries due. Those of the live worker move on at once; those of the
 * dead one only once they were taken over. The takeover time is from the kill until every
 * noted item moved on: finished, or claimed again (a run's or delivery's attempts grew).
 */
import type pg from 'pg';
import type { Fixture } from './fixtures.js';
import { sleep } from './load.js';

/** What the issue and the operations spec promise (issue 11, "Many instances"). */
export const TAKEOVER_BOUND_MS = 10_000;
const POLL_MS = 100;

export interface InHand {
  runs: { ids: string[]; attempts: number[] };
  deliveries: { ids: string[]; attempts: number[] };
  /** Runs mid-request under a live lease, and deliveries being sent, when noted. */
  leasedRuns: number;
  leasedDeliveries: number;
}

/** The work someone could be holding now (call it right after the kill). */
export async function workInHand(pool: pg.Pool, fx: Fixture): Promise<InHand> {
  const runs = await pool.query<{ id: string; attempts: number; leased: boolean }>(
    `SELECT id, attempts, (state = 'running' AND locked_until > now()) AS leased FROM workflow_runs
     WHERE workflow_id = $1 AND (state IN ('pending', 'running') OR (state = 'waiting' AND resume_at <= now()))`,
    [fx.workflowId],
  );
  const deliveries = await pool.query<{ id: string; attempts: number; leased: boolean }>(
    `SELECT id, attempts, coalesce(locked_until > now(), false) AS leased FROM event_deliveries
     WHERE subscription_id = $1 AND state = 'pending' AND next_attempt_at <= now()`,
    [fx.subscriptionId],
  );
  return {
    runs: { ids: runs.rows.map((r) => r.id), attempts: runs.rows.map((r) => r.attempts) },
    deliveries: { ids: deliveries.rows.map((d) => d.id), attempts: deliveries.rows.map((d) => d.attempts) },
    leasedRuns: runs.rows.filter((r) => r.leased).length,
    leasedDeliveries: deliveries.rows.filter((d) => d.leased).length,
  };
}

/** How many of the noted items have not moved on yet (undefined while Postgres does not answer). */
async function notMovedOn(pool: pg.Pool, inHand: InHand): Promise<number | undefined> {
  const result = await pool
    .query<{ n: number }>(
      `SELECT (SELECT count(*) FROM workflow_runs r JOIN unnest($1::bigint[], $2::int[]) AS n(id, attempts) ON r.id = n.id
               WHERE r.state IN ('pending', 'running', 'waiting') AND r.attempts <= n.attempts)::int
            + (SELECT count(*) FROM event_deliveries d JOIN unnest($3::bigint[], $4::int[]) AS n(id, attempts) ON d.id = n.id
               WHERE d.state = 'pending' AND d.attempts <= n.attempts)::int AS n`,
      [inHand.runs.ids, inHand.runs.attempts, inHand.deliveries.ids, inHand.deliveries.attempts],
    )
    .catch(() => undefined);
  return result?.rows[0]!.n;
}

/**
 * Notes the work in hand now, then waits (at most `deadlineMs`) until all of it moved on.
 * Returns what was noted and the time since `killedAt` (a performance.now()), or no time past the deadline.
 */
export async function measureTakeover(pool: pg.Pool, fx: Fixture, killedAt: number, deadlineMs: number): Promise<{ inHand: InHand; ms?: number }> {
  const inHand = await workInHand(pool, fx);
  while (performance.now() - killedAt < deadlineMs) {
    if ((await notMovedOn(pool, inHand)) === 0) return { inHand, ms: performance.now() - killedAt };
    await sleep(POLL_MS);
  }
  return { inHand };
}

/**
 * "Nothing was lost, nothing happened twice", read straight from Postgres after a scenario:
 * every 201 has its case with exactly the posted attributes, every case has one Open run that
 * succeeded (started once, stamped once, closed), and every case.closed event was delivered
 * exactly once and seen by the receiver.
 */
import type pg from 'pg';
import type { Receiver } from '../support/automation-helpers.js';
import { type Fixture, receivedIds } from './fixtures.js';
import type { PostedCase } from './load.js';

export interface Tally {
  /** 201s without their case, or with attributes other than the posted object. */
  casesLost: number;
  /** Cases without one succeeded Open run that stamped and closed them. */
  runsLost: number;
  /** Closed cases whose case.closed event was not delivered (once) or never reached the receiver. */
  deliveriesLost: number;
  /** Anything that happened twice: a case per request, a run, a run start, a step, a delivery. */
  duplicates: number;
  /** Repeats of a webhook-id at the receiver (allowed when the log shows one delivery). */
  receiverDuplicates: number;
  /** Cases of requests that were not answered 201 (the client was told it failed). */
  unacknowledged: number;
  /** A few examples of each violation, for the report. */
  problems: string[];
}

const MAX_EXAMPLES = 3;
const POLL_MS = 200;

class Problems {
  readonly lines: string[] = [];
  private readonly counts = new Map<string, number>();

  add(kind: string, example: string): void {
    const n = (this.counts.get(kind) ?? 0) + 1;
    this.counts.set(kind, n);
    if (n <= MAX_EXAMPLES) this.lines.push(`${kind}: ${example}`);
  }

  summary(): string[] {
    const more = [...this.counts].filter(([, n]) => n > MAX_EXAMPLES).map(([kind, n]) => `${kind}: ${n} in all`);
    return [...this.lines, ...more];
  }
}

interface CaseRow {
  id: number;
  nonce: string | null;
  status: string;
  outcome: string | null;
  stamped: boolean;
  open_runs: number;
  succeeded: number;
  started: number;
  changed: number;
  closed_events: number;
}

interface EventRow {
  event_id: string;
  case_id: number;
  deliveries: number;
  delivered: number;
}

export async function checkInvariants(pool: pg.Pool, fx: Fixture, posted: PostedCase[], receiver: Receiver): Promise<Tally> {
  const problems = new Problems();
  const created = posted.filter((p) => p.caseId !== undefined);
  const casesLost = await checkAcceptedCases(pool, fx, created, problems);

  const cases = await caseRows(pool, fx);
  let runsLost = 0;
  let duplicates = 0;
  const extra = (kind: string, id: number, count: number) => {
    if (count > 1) {
      duplicates += count - 1;
      problems.add(kind, `case ${id} has ${count}`);
    }
  };
  for (const c of cases) {
    const broken = [
      c.open_runs === 0 && 'no Open run',
      c.succeeded === 0 && c.open_runs > 0 && 'its Open run did not succeed',
      c.started === 0 && 'no run_started event',
      c.changed === 0 && 'no attributes_changed event',
      !c.stamped && 'attribute seen is not the case id',
      (c.status !== 'Closed' || c.outcome !== 'Done') && `status ${c.status}/${c.outcome}, not Closed/Done`,
    ].filter(Boolean);
    if (broken.length) {
      runsLost += 1;
      problems.add('run lost', `case ${c.id}: ${broken.join(', ')}`);
    }
    extra('Open runs', c.id, c.open_runs);
    extra('run_started events', c.id, c.started);
    extra('attributes_changed events', c.id, c.changed);
    extra('case.closed events', c.id, c.closed_events);
  }
  duplicates += duplicateNonces(cases, problems);

  const acknowledged = new Set(created.map((p) => p.nonce));
  const unacknowledged = cases.filter((c) => !acknowledged.has(c.nonce ?? ''));
  if (unacknowledged.length) problems.add('case of a request not answered 201', unacknowledged.slice(0, MAX_EXAMPLES).map((c) => c.id).join(', '));

  const delivery = await checkDeliveries(pool, fx, cases, receiver, problems);
  return {
    casesLost,
    runsLost,
    deliveriesLost: delivery.lost,
    duplicates: duplicates + delivery.duplicates,
    receiverDuplicates: delivery.receiverDuplicates,
    unacknowledged: unacknowledged.length,
    problems: problems.summary(),
  };
}

/** Every 201: the case of that id, in this workflow, holding exactly the posted object (plus the run's stamp). */
async function checkAcceptedCases(pool: pg.Pool, fx: Fixture, created: PostedCase[], problems: Problems): Promise<number> {
  const ids = created.map((p) => p.caseId!);
  if (new Set(ids).size !== ids.length) problems.add('case id answered twice', `${ids.length - new Set(ids).size} repeats`);
  const { rows } = await pool.query<{ id: string; found: boolean }>(
    `SELECT a.id, c.id IS NOT NULL AS found
     FROM unnest($1::bigint[], $2::text[]) AS a(id, body)
     LEFT JOIN cases c ON c.id = a.id AND c.workflow_id = $3
     WHERE c.id IS NULL OR (c.attributes - 'seen') IS DISTINCT FROM a.body::jsonb`,
    [ids, created.map((p) => p.body), fx.workflowId],
  );
  for (const row of rows) problems.add('case lost', row.found ? `case ${row.id}: attributes differ from the posted object` : `case ${row.id}: not in the database`);
  return rows.length + ids.length - new Set(ids).size;
}

async function caseRows(pool: pg.Pool, fx: Fixture): Promise<CaseRow[]> {
  const { rows } = await pool.query<CaseRow>(
    `WITH cs AS (SELECT id, attributes, status, outcome FROM cases WHERE workflow_id = $1),
     runs AS (SELECT case_id, count(*) AS open_runs, count(*) FILTER (WHERE state = 'succeeded') AS succeeded
              FROM workflow_runs WHERE workflow_id = $1 AND status = 'Open' GROUP BY case_id),
     ev AS (SELECT e.case_id, count(*) FILTER (WHERE e.type = 'run_started') AS started,
                   count(*) FILTER (WHERE e.type = 'attributes_changed') AS changed
            FROM case_events e JOIN cs ON cs.id = e.case_id GROUP BY e.case_id),
     ob AS (SELECT case_id, count(*) AS closed_events FROM outbox_events WHERE workflow_id = $1 AND type = 'case.closed' GROUP BY case_id)
     SELECT cs.id::int AS id, cs.attributes->>'nonce' AS nonce, cs.status, cs.outcome,
            coalesce(cs.attributes->'seen' = to_jsonb(cs.id), false) AS stamped,
            coalesce(runs.open_runs, 0)::int AS open_runs, coalesce(runs.succeeded, 0)::int AS succeeded,
            coalesce(ev.started, 0)::int AS started, coalesce(ev.changed, 0)::int AS changed,
            coalesce(ob.closed_events, 0)::int AS closed_events
     FROM cs LEFT JOIN runs ON runs.case_id = cs.id LEFT JOIN ev ON ev.case_id = cs.id LEFT JOIN ob ON ob.case_id = cs.id`,
    [fx.workflowId],
  );
  return rows;
}

function duplicateNonces(cases: CaseRow[], problems: Problems): number {
  const byNonce = new Map<string, number[]>();
  for (const c of cases) byNonce.set(c.nonce ?? '', [...(byNonce.get(c.nonce ?? '') ?? []), c.id]);
  let extra = 0;
  for (const [nonce, ids] of byNonce) {
    if (ids.length < 2) continue;
    extra += ids.length - 1;
    problems.add('one request, several cases', `nonce ${nonce}: cases ${ids.join(', ')}`);
  }
  return extra;
}

async function checkDeliveries(pool: pg.Pool, fx: Fixture, cases: CaseRow[], receiver: Receiver, problems: Problems) {
  const { rows } = await pool.query<EventRow>(
    `SELECT o.public_id::text AS event_id, o.case_id::int AS case_id,
            count(DISTINCT d.id)::int AS deliveries, count(a.id) FILTER (WHERE a.delivered)::int AS delivered
     FROM outbox_events o
     LEFT JOIN event_deliveries d ON d.event_id = o.id AND d.subscription_id = $2
     LEFT JOIN delivery_attempts a ON a.delivery_id = d.id
     WHERE o.workflow_id = $1 AND o.type = 'case.closed'
     GROUP BY o.id`,
    [fx.workflowId, fx.subscriptionId],
  );
  const received = receivedIds(receiver, fx);
  const seen = new Set(received);
  const withEvent = new Set(rows.map((r) => r.case_id));
  let lost = 0;
  let duplicates = 0;
  for (const c of cases) {
    if (c.status === 'Closed' && !withEvent.has(c.id)) {
      lost += 1;
      problems.add('delivery lost', `closed case ${c.id} has no case.closed event`);
    }
  }
  for (const e of rows) {
    if (e.delivered === 0 || !seen.has(e.event_id)) {
      lost += 1;
      problems.add('delivery lost', `event ${e.event_id} (case ${e.case_id}): ${e.deliveries} deliveries, ${e.delivered} delivered attempts, ${seen.has(e.event_id) ? 'seen' : 'never seen'} by the receiver`);
    }
    const extra = Math.max(0, e.deliveries - 1) + Math.max(0, e.delivered - 1);
    if (extra > 0) {
      duplicates += extra;
      problems.add('delivered twice', `event ${e.event_id} (case ${e.case_id}): ${e.deliveries} deliveries, ${e.delivered} delivered attempts`);
    }
  }
  return { lost, duplicates, receiverDuplicates: received.length - seen.size };
}

interface Progress {
  cases: number;
  closed: number;
  unfinished: number;
  undelivered: number;
  delivered: number;
}

async function progress(pool: pg.Pool, fx: Fixture): Promise<Progress> {
  const { rows } = await pool.query<Progress>(
    `SELECT (SELECT count(*) FROM cases WHERE workflow_id = $1)::int AS cases,
            (SELECT count(*) FROM cases WHERE workflow_id = $1 AND status = 'Closed')::int AS closed,
            (SELECT count(*) FROM workflow_runs WHERE workflow_id = $1 AND state IN ('pending', 'running', 'waiting'))::int AS unfinished,
            (SELECT count(*) FROM event_deliveries WHERE subscription_id = $2 AND state = 'pending')::int AS undelivered,
            (SELECT count(*) FROM event_deliveries WHERE subscription_id = $2 AND state = 'delivered')::int AS delivered`,
    [fx.workflowId, fx.subscriptionId],
  );
  return rows[0]!;
}

/**
 * Waits (at most `deadlineMs`) until nothing is left to do: no unfinished run, no pending
 * delivery, and the receiver has seen every delivered event. Returns how long it took, or the
 * state it was stuck in at the deadline.
 */
export async function waitForCatchUp(pool: pg.Pool, fx: Fixture, receiver: Receiver, deadlineMs: number): Promise<{ ms: number; stuck?: string }> {
  const started = performance.now();
  let last = 'no answer from Postgres';
  while (performance.now() - started < deadlineMs) {
    const p = await progress(pool, fx).catch(() => undefined);
    if (p) {
      const seen = new Set(receivedIds(receiver, fx)).size;
      if (p.unfinished === 0 && p.undelivered === 0 && seen >= p.delivered) return { ms: performance.now() - started };
      last = `${p.cases} cases, ${p.closed} closed, ${p.unfinished} unfinished runs, ${p.undelivered} pending deliveries, ${p.delivered} delivered, ${seen} seen by the receiver`;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return { ms: performance.now() - started, stuck: `not caught up after ${deadlineMs / 1000} s: ${last}` };
}

/** How a stuck run or delivery looks in Postgres, with the state of its Bull job (read by `job`). */
export async function describeStuck(pool: pg.Pool, fx: Fixture, job: (queue: string, id: string) => Promise<string>): Promise<string[]> {
  const runs = await pool.query<{ id: string; state: string; attempts: number; current_step: number; locked_until: Date | null; resume_at: Date | null; enqueued_at: Date | null }>(
    `SELECT id, state, attempts, current_step, locked_until, resume_at, enqueued_at FROM workflow_runs
     WHERE workflow_id = $1 AND state IN ('pending', 'running', 'waiting') ORDER BY id LIMIT ${MAX_EXAMPLES}`,
    [fx.workflowId],
  );
  const deliveries = await pool.query<{ id: string; attempts: number; next_attempt_at: Date; locked_until: Date | null; enqueued_at: Date | null }>(
    `SELECT id, attempts, next_attempt_at, locked_until, enqueued_at FROM event_deliveries
     WHERE subscription_id = $1 AND state = 'pending' ORDER BY id LIMIT ${MAX_EXAMPLES}`,
    [fx.subscriptionId],
  );
  const at = (d: Date | null) => d?.toISOString() ?? 'null';
  const lines: string[] = [`stuck at ${new Date().toISOString()}`];
  for (const r of runs.rows) {
    // The job id the relay uses for a run in this state (src/modules/automation/infrastructure/run-relay.service.ts).
    const key = r.state === 'running' ? `takeover-${r.attempts}` : r.state === 'waiting' ? `resume-${r.resume_at?.getTime()}` : 'start';
    const jobId = `run:${r.id}:${key}`;
    lines.push(`run ${r.id}: ${r.state}, attempts ${r.attempts}, step ${r.current_step}, locked_until ${at(r.locked_until)}, resume_at ${at(r.resume_at)}, enqueued_at ${at(r.enqueued_at)}; Bull job ${jobId}: ${await job('automation', jobId)}`);
  }
  for (const d of deliveries.rows) {
    const jobId = `delivery:${d.id}:${d.attempts}`;
    lines.push(`delivery ${d.id}: pending, attempts ${d.attempts}, next_attempt_at ${at(d.next_attempt_at)}, locked_until ${at(d.locked_until)}, enqueued_at ${at(d.enqueued_at)}; Bull job ${jobId}: ${await job('deliveries', jobId)}`);
  }
  return lines;
}

/** Runs of this workflow's cases up to `maxCaseId` that are not finished yet (undefined while Postgres does not answer). */
export async function unfinishedRunsUpTo(pool: pg.Pool, fx: Fixture, maxCaseId: number): Promise<number | undefined> {
  const result = await pool
    .query<{ n: number }>(
      `SELECT count(*)::int AS n FROM workflow_runs WHERE workflow_id = $1 AND case_id <= $2 AND state IN ('pending', 'running', 'waiting')`,
      [fx.workflowId, maxCaseId],
    )
    .catch(() => undefined);
  return result?.rows[0]!.n;
}

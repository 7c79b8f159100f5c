import { lifecycleEventDetails, lifecycleEventTypes } from '../domain/case-lifecycle.js';
import type { Case, CaseEvent } from '../domain/case.js';
import type { ChangedCaseStatement, CaseStatementPart } from '../domain/case-statement-parts.js';
import type { Run } from '../domain/run.js';
import { column, type RowOf } from '../../../shared/database/typed-statement.js';
import { statementBuilder } from './persistence.js';
import { WORKED_CASE_COLUMNS } from './case.mapper.js';
import { WORKED_CASE_ROW } from './case-row.columns.js';
import { caseRowView } from './case-row-view.sql.js';
import { timelineRow } from './case-timeline.js';

/**
 * What a case and its runs did up to and including one status change (or, last, what they did
 * after it), in one statement: the attribute merges ($5, merged into one object), the move ($2-$4), the runs
 * as they now stand ($8-$14: the run that made the move ended, the others superseded, a held
 * run's lease counted from now on the database clock, not from the start of the transaction,
 * which may have waited for the case's lock; their traces appended, $22-$24, see
 * Run.takeTrace), who works the case ($25-$27: whether it was assigned, to whom, to which
 * team; $28 its new priority, null when unchanged; $29 the attribute keys a merge patch
 * removes before $5 is merged, which is then at least `{}`), the new status's run ($6, at chain depth $7), the
 * timeline rows in the order the events happened ($15-$20), and the other modules' parts
 * (CaseStatementPart: the outbox, with $21, the events subscribers may follow, and $30 what each tells besides the case, such as a move
 * or a received email, which also counts as a change of the case; the report log, from the
 * status `before` the statement, which the case's lock keeps current). A status change needs a
 * statement of its own: the outbox tells subscribers the case as it was right after it.
 *
 * The runs are also matched by `id = ANY($8)`, which the join implies: a named statement keeps
 * the plan it made first, and on a new, empty table a hash join over a sequential scan looks
 * cheapest; that plan, kept while the table grows, scans every run on every store.
 *
 * The attributes are assigned only when a patch came: \`attributes || '{}'\` is a new value, which
 * Postgres writes out again (with its TOAST chunks and their WAL) where the old one is kept by
 * reference. The patches come as one parameter, not an array: Postgres keeps a named
 * statement's generic plan only while it does not look costlier than one planned for the values
 * at hand, and a generic plan guesses an array's length (ten) where a custom one knows it. With
 * the patches and the runs both as arrays the guess tipped the balance, and the statement was
 * planned again on every execution, which took as long as executing it (pg_stat_statements with
 * track_planning, in the bench's automation part).
 *
 * A parked run's resume time is read from the clock as its timeline row is written, after the
 * rows before it (a wait lasts its full length from the run's start), and the run takes it
 * from that row. *
 * `change_xid` places the case in the change feed (docs/change-feed.md): the writing
 * transaction's id, which it already has, read in the statement that changes the case, so the
 * feed costs no round trip and no sequence. Its price is on the index side: with `change_xid`
 * indexed, this update is never HOT, so it adds an entry to each of the table's four indexes
 * where a HOT update (possible only while the case's heap page had room) added none.
 */
const storeChangesSql = (parts: readonly CaseStatementPart[]): string => `
  WITH before AS (
    SELECT organization_id, workflow_id, mode, source, status, created_at FROM cases WHERE id = $1
  ), changed AS (
    UPDATE cases SET status = CASE WHEN $2::boolean THEN $3 ELSE status END,
                     outcome = CASE WHEN $2::boolean THEN $4 ELSE outcome END,
                     attributes = CASE WHEN $5::jsonb IS NULL THEN attributes ELSE (attributes - $29::text[]) || $5::jsonb END,
                     assignee_id = CASE WHEN $25::boolean THEN $26::bigint ELSE assignee_id END,
                     team_id = CASE WHEN $25::boolean THEN $27::bigint ELSE team_id END,
                     priority = coalesce($28::text, priority),
                     updated_at = now(), change_xid = pg_current_xact_id()
    WHERE id = $1 AND ($2::boolean OR $5::jsonb IS NOT NULL OR cardinality($21::text[]) > 0 OR $25::boolean OR $28::text IS NOT NULL) RETURNING *
  ), events AS (
    INSERT INTO case_events (organization_id, case_id, type, actor, data)
    SELECT (SELECT organization_id FROM before), $1, t.type, t.actor,
           t.data
           || CASE WHEN t.run_id IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('run_id', t.run_id) END
           || CASE WHEN t.resume_key IS NULL THEN '{}'::jsonb
                   ELSE jsonb_build_object(t.resume_key, to_char((clock_timestamp() + t.delay_ms * interval '1 millisecond') AT TIME ZONE 'UTC',
                                                                 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) END
    FROM unnest($15::text[], $16::text[], $17::jsonb[], $18::bigint[], $19::text[], $20::bigint[])
         WITH ORDINALITY AS t(type, actor, data, run_id, resume_key, delay_ms, n)
    ORDER BY t.n
    RETURNING (data->>'run_id')::bigint AS run_id, coalesce(data->>'until', data->>'retry_at')::timestamptz AS resume_at
  ), runs_updated AS (
    UPDATE workflow_runs r
    SET state = u.state, current_step = u.current_step, step_attempts = u.step_attempts, attempts = u.attempts,
        error = CASE WHEN u.state IN ('succeeded', 'failed') THEN u.error ELSE r.error END,
        locked_until = clock_timestamp() + u.lease_ms * interval '1 millisecond',
        resume_at = CASE WHEN u.state = 'waiting' THEN (SELECT e.resume_at FROM events e WHERE e.run_id = r.id AND e.resume_at IS NOT NULL)
                         WHEN u.state = 'superseded' THEN r.resume_at END,
        started_at = CASE WHEN u.state = 'superseded' THEN r.started_at ELSE coalesce(r.started_at, now()) END,
        finished_at = CASE WHEN u.state IN ('succeeded', 'failed', 'superseded') THEN now() ELSE r.finished_at END,
        steps = CASE WHEN u.steps IS NULL THEN r.steps
                     WHEN u.replaces_last THEN (r.steps - (-1)) || jsonb_set(u.steps, '{0,started_at}', r.steps -> -1 -> 'started_at')
                     ELSE r.steps || u.steps END,
        steps_omitted = r.steps_omitted + u.steps_omitted
    FROM unnest($8::bigint[], $9::text[], $10::int[], $11::int[], $12::int[], $13::text[], $14::bigint[], $22::jsonb[], $23::int[], $24::boolean[])
         AS u(id, state, current_step, step_attempts, attempts, error, lease_ms, steps, steps_omitted, replaces_last)
    WHERE r.id = u.id AND r.id = ANY($8::bigint[])
    RETURNING r.id, r.state, r.resume_at
  ), next_run AS (
    INSERT INTO workflow_runs (case_id, organization_id, workflow_id, workflow_version, status, mode, chain_depth)
    SELECT id, organization_id, workflow_id, workflow_version, status, mode, $7 FROM changed WHERE $6::boolean
    RETURNING id
  )${parts.map((part) => part.changed?.(CHANGED) ?? '').join('')}
  SELECT ${WORKED_CASE_COLUMNS}, (SELECT id FROM next_run) AS started_run_id,
         (SELECT resume_at FROM runs_updated WHERE state = 'waiting') AS resume_at
  FROM (SELECT * FROM changed UNION ALL SELECT * FROM cases WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM changed)) c`;

const CHANGED: ChangedCaseStatement = {
  before: caseRowView('b', 'before'), changed: caseRowView('c', 'changed'),
  moved: '$2', to: '$3', runStates: '$9', runErrors: '$13', eventTypes: '$21', eventDetails: '$30',
};

const STORED_CHANGES_ROW = { ...WORKED_CASE_ROW, started_run_id: column.nullable(column.int8), resume_at: column.nullable(column.timestamptz) };

/** The change statement with the other modules' parts; declared without them, which their own check covers (case-statement-parts). */
export const storeChangesStatement = statementBuilder(storeChangesSql, STORED_CHANGES_ROW, [[[]]]);

export type StoredChangesRow = RowOf<typeof STORED_CHANGES_ROW>;

/**
 * Splits the events into batches of one statement each: up to and including a status change
 * with the runs that end right after it (the run that made the move ends after it), and what
 * follows the last one. A run's end changes nothing of the case its subscribers are told, so it
 * needs no statement of its own: a chain of moves costs a statement per move, not one more.
 */
export function changeBatches(events: CaseEvent[]): CaseEvent[][] {
  const batches: CaseEvent[][] = [[]];
  let moved = false;
  for (const event of events) {
    if (moved && event.type !== 'run_finished') batches.push([]);
    batches.at(-1)!.push(event);
    moved = event.type === 'status_changed' || (moved && event.type === 'run_finished');
  }
  return batches.filter((batch) => batch.length > 0);
}

/** The parameters of the change statement (storeChangesStatement) for one batch. */
export function changeParams(subject: Case, events: CaseEvent[]): unknown[] {
  const move = events.find((e) => e.type === 'status_changed');
  const started = move && subject.runStartedBy(move);
  const patch = mergedPatch(events.flatMap((e) => (e.type === 'attributes_changed' ? [e.patch] : [])));
  const removed = events.flatMap((e) => (e.type === 'attributes_changed' ? (e.removed ?? []) : []));
  const runs = runUpdates(events).map((update) => ({ ...update, props: update.run.snapshot(), trace: update.run.takeTrace() }));
  const rows = events.flatMap((e) => timelineRow(e) ?? []);
  const assigned = events.findLast((e): e is Extract<CaseEvent, { type: 'assigned' }> => e.type === 'assigned');
  const prioritized = events.findLast((e): e is Extract<CaseEvent, { type: 'priority_changed' }> => e.type === 'priority_changed');
  return [
    subject.id, move !== undefined, move?.to ?? null, move?.outcome ?? null, patch,
    started !== undefined, started?.chainDepth ?? 0,
    runs.map((r) => r.props.id), runs.map((r) => r.props.state), runs.map((r) => r.props.currentStep), runs.map((r) => r.props.stepAttempts),
    runs.map((r) => r.props.attempts), runs.map((r) => r.error), runs.map((r) => r.leaseMs),
    rows.map((r) => r.type), rows.map((r) => r.actor), rows.map((r) => JSON.stringify(r.data)),
    rows.map((r) => r.run?.id ?? null), rows.map((r) => r.resumeAt?.key ?? null), rows.map((r) => r.resumeAt?.delayMs ?? null),
    events.flatMap(lifecycleEventTypes),
    runs.map((r) => (r.trace.steps.length ? JSON.stringify(r.trace.steps) : null)), runs.map((r) => r.trace.omitted), runs.map((r) => r.trace.replacesLast),
    assigned !== undefined, assigned?.to.assignee?.id ?? null, assigned?.to.team?.id ?? null, prioritized?.to ?? null, removed,
    events.flatMap(lifecycleEventDetails),
  ];
}

/**
 * The patches (JSON texts of objects) as one object text that merges them in order: jsonb keeps
 * the last of a key given twice, so joining their members merges them without parsing, and so
 * without altering, any value. Null when there is no patch.
 */
export function mergedPatch(patches: string[]): string | null {
  if (patches.length === 0) return null;
  const members = patches.map((patch) => {
    const text = patch.trim();
    if (!text.startsWith('{') || !text.endsWith('}')) throw new Error('an attribute patch is the text of a JSON object');
    return text.slice(1, -1).trim();
  });
  return `{${members.filter((m) => m.length > 0).join(',')}}`;
}

interface RunUpdate {
  run: Run;
  error: string | null;
  leaseMs: number | null;
}

/** The stored runs the batch's events touched, with the lease their last event asked for; stored as they stand now. */
function runUpdates(events: CaseEvent[]): RunUpdate[] {
  const updates = new Map<Run, RunUpdate>();
  for (const event of events) {
    if (!('run' in event) || !event.run.isStored) continue;
    const update = updates.get(event.run) ?? { run: event.run, error: null, leaseMs: null };
    if (event.type === 'run_held') update.leaseMs = event.leaseMs;
    if (event.type === 'run_parked') update.leaseMs = null;
    if (event.type === 'run_finished') update.error = event.error;
    updates.set(event.run, update);
  }
  return [...updates.values()];
}

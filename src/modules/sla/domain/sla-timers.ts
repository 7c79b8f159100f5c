import type { CaseHistory, SlaClocks } from './sla-clocks.js';
import type { ClockName } from './sla-policy.js';

export type TimerKind = 'warning' | 'breach';

/** A moment a clock period is to fire at: its warning, or its breach. Each fires once per period. */
export interface TimerSpec {
  clock: ClockName;
  kind: TimerKind;
  /** Which period of the clock (creation, or the requester message next_response answers). */
  periodStartedAt: Date;
  fireAt: Date;
  /** When the clock is due: a breach's own time; a warning's is unknown while its clock is paused. */
  dueAt: Date | null;
}

/**
 * The timers a case's clocks want now: every moment a clock period reached (or will reach)
 * while running, so that one passed while no worker ran still fires, late and once. A warning
 * is wanted when the clock got (or gets) within `warn_before` of its due time before it was met;
 * a breach when the clock breached, or runs toward its due time. A paused clock's future moments
 * are unknown: it gets them again, at their new times, once it runs.
 */
export function desiredTimers(clocks: SlaClocks): TimerSpec[] {
  return Object.entries(clocks).flatMap(([clock, state]): TimerSpec[] => {
    const at = (kind: TimerKind, fireAt: Date | null): TimerSpec[] => (fireAt === null ? [] : [{ clock: clock as ClockName, kind, periodStartedAt: state.started_at, fireAt, dueAt: kind === 'breach' ? fireAt : state.due_at }]);
    const warned = state.warn_at !== null && (state.met_at === null || state.warn_at < state.met_at) ? state.warn_at : null;
    return [...at('warning', warned), ...at('breach', state.state === 'running' ? state.due_at : state.breached_at)];
  });
}

/** A `case_events`-like row of the case's timeline, as the cases module hands it out. */
export interface TimelineEntry {
  type: string;
  data: Record<string, unknown>;
  createdAt: Date;
}

/**
 * A case's history from its timeline: status changes (`status_changed`), public replies
 * (`comment_added` with `visibility: "public"`, casework.md section 3) and the requester's
 * messages (`email_received` after creation: the first message is the case itself; mail a
 * machine sent, marked `automatic`, is no requester's message and starts no next_response).
 */
export function caseHistoryFrom(createdAt: Date, initialStatus: string, timeline: readonly TimelineEntry[]): CaseHistory {
  const created = timeline.find((row) => row.type === 'created');
  return {
    createdAt,
    initialStatus: typeof created?.data.status === 'string' ? created.data.status : initialStatus,
    statusChanges: timeline.filter((row) => row.type === 'status_changed' && typeof row.data.to === 'string').map((row) => ({ at: row.createdAt, to: row.data.to as string })),
    publicReplies: timeline.filter((row) => row.type === 'comment_added' && row.data.visibility === 'public').map((row) => row.createdAt),
    requesterMessages: timeline.filter((row) => row.type === 'email_received' && row.data.automatic !== true && row.createdAt > createdAt).map((row) => row.createdAt),
    priorityChanges: timeline.filter((row) => row.type === 'priority_changed').map((row) => row.createdAt),
  };
}

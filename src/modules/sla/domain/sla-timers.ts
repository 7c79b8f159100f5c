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
}

/**
 * The timers a case's clocks want now. A running clock wants its warning and its breach; a
 * breached one its breach at the moment it breached (fired late, once, if no worker was there
 * to fire it then); a paused or met one none (a resumed clock gets them again, at new times).
 */
export function desiredTimers(clocks: SlaClocks): TimerSpec[] {
  return Object.entries(clocks).flatMap(([clock, state]): TimerSpec[] => {
    const at = (kind: TimerKind, fireAt: Date | null): TimerSpec[] => (fireAt === null ? [] : [{ clock: clock as ClockName, kind, periodStartedAt: state.started_at, fireAt }]);
    if (state.state === 'running') return [...at('warning', state.warn_at), ...at('breach', state.due_at)];
    if (state.state === 'breached') return at('breach', state.breached_at);
    return [];
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
 * messages (`email_received` after creation: the first message is the case itself).
 */
export function caseHistoryFrom(createdAt: Date, initialStatus: string, timeline: readonly TimelineEntry[]): CaseHistory {
  const created = timeline.find((row) => row.type === 'created');
  return {
    createdAt,
    initialStatus: typeof created?.data.status === 'string' ? created.data.status : initialStatus,
    statusChanges: timeline.filter((row) => row.type === 'status_changed' && typeof row.data.to === 'string').map((row) => ({ at: row.createdAt, to: row.data.to as string })),
    publicReplies: timeline.filter((row) => row.type === 'comment_added' && row.data.visibility === 'public').map((row) => row.createdAt),
    requesterMessages: timeline.filter((row) => row.type === 'email_received' && row.createdAt > createdAt).map((row) => row.createdAt),
  };
}

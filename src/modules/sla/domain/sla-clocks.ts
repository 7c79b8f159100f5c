import type { BusinessCalendar } from './business-calendar.js';
import type { BusinessDuration } from './business-duration.js';
import { addBusinessMs, addBusinessTime, businessMsBetween } from './business-time.js';
import type { ClockName, Priority, SlaPolicy } from './sla-policy.js';

export const CLOSED = 'Closed';

/** What the clocks of a case are computed from; every list oldest first. */
export interface CaseHistory {
  createdAt: Date;
  /** The status the case was created in. */
  initialStatus: string;
  /** Every status change; a close is a change to Closed, a reopen one away from it. */
  statusChanges: readonly { at: Date; to: string }[];
  /** Public replies to the requester (casework.md section 3). */
  publicReplies: readonly Date[];
  /** The requester's messages after the first (email replies). */
  requesterMessages: readonly Date[];
  /** When its priority was changed. */
  priorityChanges: readonly Date[];
}

/**
 * Whether a policy set at `setAt` applies to a live case of this history (sla.md section 2): one
 * created since, or whose priority changed since (its clocks then run from its creation).
 */
export function policyApplies(history: CaseHistory, setAt: Date): boolean {
  return history.createdAt >= setAt || history.priorityChanges.some((at) => at >= setAt);
}

export type ClockStateName = 'running' | 'paused' | 'met' | 'breached';

export interface SlaClock {
  state: ClockStateName;
  /**
   * When the clock reaches its target: while running, when it will (null past the horizon);
   * once breached, when it did; once met, the deadline it met. Null while paused.
   */
  due_at: Date | null;
  met_at: Date | null;
  breached_at: Date | null;
  /** Not counting now: the case is in a pause status (or Closed, for the response clocks). */
  paused: boolean;
  /** When the clock period began: creation, or the requester message that next_response answers. */
  started_at: Date;
  /** When the clock got (or gets) within `warn_before` of its due time; null without warnings, or while paused before it. */
  warn_at: Date | null;
  /** Business time counted from the period's start to when it was met (or to now): what reports measure. */
  elapsed_ms: number;
}

export type SlaClocks = Partial<Record<ClockName, SlaClock>>;

/** A span in which the clocks count: the case is neither in a pause status nor Closed. */
type Span = readonly [number, number];

/**
 * The clocks of a case at `now`, from its whole history under its current priority (a priority
 * change recomputes them). A clock without a target for that priority, and next_response
 * before the requester's first reply, are absent. Time outside business hours, in a pause
 * status or Closed does not count; a reopen runs the resolution clock on from where it stopped.
 */
export function slaClocks(policy: SlaPolicy, calendar: BusinessCalendar, priority: Priority, history: CaseHistory, now: Date): SlaClocks {
  const targets = policy.targets[priority] ?? {};
  const created = history.createdAt.getTime();
  // A sweep takes its time before it reads the cases, so it may read one created after that time (by
  // the database's clock): seen as of its creation, not before, so that no clock ends before it starts.
  const at = Math.max(now.getTime(), created);
  const { spans, countingNow } = countingSpans(history, policy.pauseStatuses, at);
  const clocks: SlaClocks = {};
  const clock = (target: BusinessDuration, start: number, goal: number | null) => computeClock({ calendar, spans, countingNow, now: at, warnBefore: policy.warnBefore }, target, start, goal);

  const replies = history.publicReplies.map((d) => d.getTime()).filter((t) => t >= created && t <= at).sort((a, b) => a - b);
  if (targets.first_response) clocks.first_response = clock(targets.first_response, created, replies[0] ?? null);
  if (targets.resolution) {
    const closedSince = statusAt(history, at) === CLOSED ? lastChangeTo(history, CLOSED, at) : null;
    clocks.resolution = clock(targets.resolution, created, closedSince);
  }
  if (targets.next_response) {
    const period = lastRequesterPeriod(history.requesterMessages.map((d) => d.getTime()).filter((t) => t >= created && t <= at), replies);
    if (period) clocks.next_response = clock(targets.next_response, period.start, period.answered);
  }
  return clocks;
}

interface ClockInputs {
  calendar: BusinessCalendar;
  spans: readonly Span[];
  countingNow: boolean;
  now: number;
  warnBefore: BusinessDuration | null;
}

function computeClock({ calendar, spans, countingNow, now, warnBefore }: ClockInputs, target: BusinessDuration, start: number, goal: number | null): SlaClock {
  const end = goal ?? now;
  const counted = spans.flatMap(([from, to]): Span[] => (to > start && from < end ? [[Math.max(from, start), Math.min(to, end)]] : []));
  // A duration in business days is as long as it is from the period's start; from there on it is business time.
  const targetMs = businessTarget(calendar, start, target);
  // A met clock shows the deadline it met, as if it had counted on; an open one projects only while it counts.
  const countingAtEnd = goal !== null || countingNow;
  const whenElapsed = (threshold: number): number | null => {
    let elapsed = 0;
    for (const [from, to] of counted) {
      const length = businessMsBetween(calendar, from, to);
      if (elapsed + length >= threshold) return addBusinessMs(calendar, from, threshold - elapsed);
      elapsed += length;
    }
    return countingAtEnd ? addBusinessMs(calendar, end, threshold - elapsed) : null;
  };
  const dueAt = targetMs === null ? null : whenElapsed(targetMs);
  const warnMs = warnBefore === null || targetMs === null ? null : businessTarget(calendar, start, warnBefore);
  const warnAt = warnMs === null ? null : whenElapsed(Math.max(0, targetMs! - warnMs));
  const date = (t: number | null) => (t === null ? null : new Date(t));
  const elapsedMs = counted.reduce((sum, [from, to]) => sum + businessMsBetween(calendar, from, to), 0);
  const base = { started_at: new Date(start), warn_at: date(warnAt), elapsed_ms: elapsedMs };
  if (goal !== null) {
    const breached = dueAt !== null && dueAt < goal;
    return { ...base, state: breached ? 'breached' : 'met', due_at: date(dueAt), met_at: new Date(goal), breached_at: breached ? date(dueAt) : null, paused: false };
  }
  const paused = !countingAtEnd;
  if (dueAt !== null && dueAt <= now) return { ...base, state: 'breached', due_at: date(dueAt), met_at: null, breached_at: date(dueAt), paused };
  return { ...base, state: paused ? 'paused' : 'running', due_at: date(dueAt), met_at: null, breached_at: null, paused };
}

/** The target in business ms from `start`; null when the calendar holds no such time within the horizon. */
function businessTarget(calendar: BusinessCalendar, start: number, duration: BusinessDuration): number | null {
  const due = addBusinessTime(calendar, new Date(start), duration);
  return due === null ? null : businessMsBetween(calendar, start, due.getTime());
}

/** The spans from creation to `now` in which the case is in a counting status, and whether it still is. */
function countingSpans(history: CaseHistory, pauseStatuses: ReadonlySet<string>, now: number): { spans: Span[]; countingNow: boolean } {
  const counts = (status: string) => status !== CLOSED && !pauseStatuses.has(status);
  const spans: Span[] = [];
  let since = history.createdAt.getTime();
  let status = history.initialStatus;
  const close = (until: number) => {
    if (counts(status) && until > since) spans.push([since, until]);
  };
  for (const change of history.statusChanges) {
    const t = Math.max(change.at.getTime(), history.createdAt.getTime());
    if (t > now) break;
    close(t);
    since = Math.max(since, t);
    status = change.to;
  }
  close(now);
  return { spans, countingNow: counts(status) };
}

function statusAt(history: CaseHistory, at: number): string {
  let status = history.initialStatus;
  for (const change of history.statusChanges) if (change.at.getTime() <= at) status = change.to;
  return status;
}

function lastChangeTo(history: CaseHistory, status: string, at: number): number {
  let last = history.createdAt.getTime();
  for (const change of history.statusChanges) if (change.to === status && change.at.getTime() <= at) last = change.at.getTime();
  return last;
}

/**
 * The latest next_response period: from the first requester message not yet answered when it
 * came to the first public reply after it (null while unanswered).
 */
function lastRequesterPeriod(messages: readonly number[], replies: readonly number[]): { start: number; answered: number | null } | null {
  let period: { start: number; answered: number | null } | null = null;
  for (const message of [...messages].sort((a, b) => a - b)) {
    if (period && (period.answered === null || period.answered >= message)) continue;
    period = { start: message, answered: replies.find((reply) => reply >= message) ?? null };
  }
  return period;
}

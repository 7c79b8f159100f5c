import { CLOSED, ERROR } from '../../workflows/domain/status-rules.js';
import type { CaseEvent } from './case.js';

export const LIFECYCLE_EVENT_TYPES = ['case.created', 'case.status_changed', 'case.closed', 'case.reopened', 'case.errored', 'case.email_received', 'case.assigned', 'case.commented', 'case.sla_warning', 'case.sla_breached'] as const;
export type LifecycleEventType = (typeof LIFECYCLE_EVENT_TYPES)[number];

/**
 * The notes the SLA module writes on a case's timeline when one of its timers fires (`data`:
 * `clock`, `due_at`, `late_ms`), told to subscribers as these events with that data as `sla`.
 */
export const SLA_NOTES = { sla_warning: 'case.sla_warning', sla_breached: 'case.sla_breached' } as const;
export type SlaNote = keyof typeof SLA_NOTES;

/**
 * The events subscribers may follow for a change of a case, in the order they are sent: every
 * move is a `case.status_changed`, and entering Closed, leaving it, or being parked in Error
 * is also told as such. A reply added to a case by email is a `case.email_received`; a
 * change of its assignee or team a `case.assigned`; a comment a `case.commented`; an SLA timer
 * that fired a `case.sla_warning` or `case.sla_breached`.
 */
export function lifecycleEventTypes(event: CaseEvent): LifecycleEventType[] {
  switch (event.type) {
    case 'created':
      return ['case.created'];
    case 'status_changed': {
      const types: LifecycleEventType[] = ['case.status_changed'];
      if (event.to === CLOSED) types.push('case.closed');
      else if (event.from === CLOSED) types.push('case.reopened');
      if (event.to === ERROR) types.push('case.errored');
      return types;
    }
    case 'email_received':
      return ['case.email_received'];
    case 'assigned':
      return ['case.assigned'];
    case 'comment_added':
      return ['case.commented'];
    case 'noted':
      return Object.hasOwn(SLA_NOTES, event.note) ? [SLA_NOTES[event.note as SlaNote]] : [];
    default:
      return [];
  }
}

/**
 * What an event tells subscribers besides the case, as JSON text, one per type of
 * lifecycleEventTypes (null: nothing). A comment tells its visibility and its author's id (never
 * the staff member's email: subscribers are outside the organization), and a public reply its
 * body; an internal note's body is never in an event. An SLA event tells its clock, due time and
 * how late it fired.
 */
export function lifecycleEventDetails(event: CaseEvent): (string | null)[] {
  if (event.type === 'noted' && Object.hasOwn(SLA_NOTES, event.note)) return [JSON.stringify({ sla: event.data })];
  if (event.type !== 'comment_added') return lifecycleEventTypes(event).map(() => null);
  const { id, visibility, author, publicBody } = event.comment;
  return [JSON.stringify({ comment: { id, visibility, author: { id: author.id }, ...(visibility === 'public' && publicBody !== null ? { body: publicBody } : {}) } })];
}

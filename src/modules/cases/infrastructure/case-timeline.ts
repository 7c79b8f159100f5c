import type { Actor, CaseEvent } from '../domain/case.js';
import type { Run } from '../domain/run.js';

/**
 * A `case_events` row. `run` is the run the row is about: its id goes into the data under
 * `run_id`. `resumeAt` names the key under which the statement adds the time a parked run
 * goes on, `delayMs` from the database clock as the row is written.
 */
export interface TimelineRow {
  type: string;
  actor: string;
  data: Record<string, unknown>;
  run?: Run;
  resumeAt?: { key: 'until' | 'retry_at'; delayMs: number };
}

function actorColumn(actor: Actor): string {
  if (actor.kind === 'api_token' || actor.kind === 'admin_token') return `${actor.kind}:${actor.tokenId}`;
  if (actor.kind === 'user') return `user:${actor.userId}`;
  return actor.kind === 'case_source' ? `case_source:${actor.sourceType}` : actor.kind;
}

/** The one place domain events become timeline rows; null for events the timeline does not show. */
export function timelineRow(event: CaseEvent): TimelineRow | null {
  switch (event.type) {
    case 'created':
      return { type: event.type, actor: actorColumn(event.actor), data: { source: event.source, mode: event.mode, status: event.status } };
    case 'status_changed': {
      const { from, to, outcome, reason } = event;
      return { type: event.type, actor: actorColumn(event.actor), data: { from, to, outcome, ...(reason ? { reason } : {}) } };
    }
    case 'attributes_changed':
      return { type: event.type, actor: actorColumn(event.actor), data: { keys: event.keys } };
    case 'email_received':
      return { type: event.type, actor: actorColumn(event.actor), data: event.email };
    case 'noted':
      return { type: event.note, actor: actorColumn(event.actor), data: event.data };
    case 'assigned':
      return { type: event.type, actor: actorColumn(event.actor), data: { from: event.from.assignee, to: event.to.assignee, team_from: event.from.team, team_to: event.to.team } };
    case 'priority_changed':
      return { type: event.type, actor: actorColumn(event.actor), data: { from: event.from, to: event.to } };
    case 'comment_added': {
      const { id, visibility, author } = event.comment;
      return { type: event.type, actor: actorColumn(event.actor), data: { comment_id: id, visibility, author } };
    }
    case 'run_started':
      return { type: event.type, actor: 'engine', run: event.run, data: { status: event.run.status, mode: event.run.mode, ...(event.run.onSla ? { on_sla: event.run.onSla } : {}) } };
    case 'run_resumed':
    case 'run_held':
      return null;
    case 'run_parked': {
      const { pause, run, delayMs } = event;
      if (pause.kind === 'wait') return { type: 'run_waiting', actor: 'engine', run, data: {}, resumeAt: { key: 'until', delayMs } };
      return { type: `${pause.step}_retry`, actor: 'engine', run, data: { attempt: pause.attempt, error: pause.error }, resumeAt: { key: 'retry_at', delayMs } };
    }
    case 'run_finished':
      return { type: `run_${event.state}`, actor: 'engine', run: event.run, data: { status: event.run.status, ...(event.error === null ? {} : { error: event.error }) } };
    case 'run_superseded':
      return { type: event.type, actor: 'engine', run: event.run, data: { status: event.run.status } };
    case 'step_noted':
      return { type: event.step, actor: 'automation', run: event.run, data: event.note };
  }
}

/** The timeline row of a case's creation, written by the intake statement. */
export function creationRow(event: CaseEvent): { type: string; actor: string; data: string } {
  const row = event.type === 'created' ? timelineRow(event) : null;
  if (!row) throw new Error('a new case starts with its creation event');
  return { type: row.type, actor: row.actor, data: JSON.stringify(row.data) };
}

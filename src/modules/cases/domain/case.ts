import { CLOSED, ERROR, OPEN, type StatusRules } from '../../workflows/domain/status-rules.js';
import { StatusNotDeclaredError, StatusReservedForEngineError } from './case.errors.js';
import { Run, type RunEvent, type RunProps } from './run.js';
import type { Assignment, Priority } from './case-work.js';
import type { CaseComment, ReceivedMessage } from './case-messages.js';

export const FALLBACK_OUTCOME = 'Resolved';

export type CaseMode = 'live' | 'test';
/** The built-in sources' types; an extension's case source adds its own `sourceType`, so a case's `source` is any registered one. */
export const CASE_SOURCES = ['API', 'Webhook', 'Email', 'Form'] as const;
export type CaseSource = (typeof CASE_SOURCES)[number];
/** A registered case source's type (CaseSourceRegistry): one of CASE_SOURCES or an extension's. */
export type SourceType = string;

/** Who changed a case: an API token, a person, an intake channel, a step of the workflow's automation, or the engine itself. */
export type Actor =
  | { kind: 'api_token'; tokenId: number }
  /** A person working the case from the dashboard, or an admin token on the admin API. */
  | { kind: 'user'; userId: number }
  | { kind: 'admin_token'; tokenId: number }
  | { kind: 'webhook' }
  | { kind: 'email' }
  | { kind: 'form' }
  | { kind: 'case_source'; sourceType: SourceType }
  | { kind: 'automation' }
  | { kind: 'engine' };

export type { CaseAttachment, CaseComment, ReceivedMessage } from './case-messages.js';

/** The exact JSON text of a case's attributes, kept as text so no number or key is ever altered. */
export type AttributesJson = string;

export type CaseEvent =
  | { type: 'created'; actor: Actor; source: SourceType; mode: CaseMode; status: string; startsRun: boolean }
  | { type: 'status_changed'; actor: Actor; from: string; to: string; outcome: string | null; startsRun: boolean; reason?: string }
  | { type: 'attributes_changed'; actor: Actor; keys: string[]; patch: AttributesJson; removed?: string[] }
  | { type: 'assigned'; actor: Actor; from: Assignment; to: Assignment }
  | { type: 'priority_changed'; actor: Actor; from: Priority; to: Priority }
  /** A reply to a message already on the case: `email` holds the same fields as an email case's `email` attribute. */
  | { type: 'email_received'; actor: Actor; email: Record<string, unknown>; message: ReceivedMessage }
  /** What another module did to the case (a link) or a merge, shown on the timeline as `note` with `data`; it changes nothing of the case itself. */
  | { type: 'noted'; actor: Actor; note: string; data: Record<string, unknown> }
  /** A comment stored by the comments module: the timeline names it, never copies its body. */
  | { type: 'comment_added'; actor: Actor; comment: CaseComment }
  | RunEvent;

export interface CaseProps {
  id: number;
  organizationId: number;
  workflowId: number;
  workflowVersion: number;
  subject: string;
  status: string;
  outcome: string | null;
  mode: CaseMode;
  source: SourceType;
  attributes: AttributesJson;
  priority: Priority;
  assigneeId: number | null;
  teamId: number | null;
  createdAt: Date;
  updatedAt: Date;
  /** How many people watch it: read for the admin API only (casework.md section 4). */
  watchers?: number;
}

export interface NewCase {
  organizationId: number;
  workflowId: number;
  workflowVersion: number;
  workflowName: string;
  subject?: string | null;
  mode: CaseMode;
  source: SourceType;
  /** How people read the source, for the default subject; the source type when absent. */
  sourceLabel?: string;
  attributes: AttributesJson;
  actor: Actor;
  /** The message the case came from, for the channels that receive messages. */
  message?: ReceivedMessage;
  /** Opened without Open's run (mail a machine sent, see the email module's isAutomatic). */
  withoutRun?: boolean;
}

/** A case not yet stored: what the repository inserts, with the events of its creation. */
export interface CaseDraft {
  readonly props: Omit<CaseProps, 'id' | 'createdAt' | 'updatedAt' | 'priority' | 'assigneeId' | 'teamId'>;
  readonly events: readonly CaseEvent[];
  readonly message?: ReceivedMessage;
}

/**
 * The Case aggregate owns the status state machine: every case starts `Open` with no outcome;
 * the API and automations may move it to any declared status but `Error`; only the engine
 * parks a case in `Error`; entering `Closed` sets the outcome, leaving it clears it.
 * Every change is recorded as an event for the timeline.
 *
 * The case's unfinished runs belong to it: a move supersedes them and starts the new status's
 * run; the worker executing a run changes it through the case, under the case's lock.
 */
export class Case {
  private events: CaseEvent[] = [];
  private readonly runs: Run[];
  /** The run a worker executes in this unit of work: the runs its moves start follow it in the chain. */
  private executing: Run | undefined;
  /** The run the last move started, when its status has automation, until a worker takes it. */
  private started: Run | undefined;
  /** The runs moves started, by move, for the repository to insert with the move. */
  private readonly startedBy = new WeakMap<CaseEvent, Run>();

  /** Runs record their events on their case's, in the order things happened. */
  private readonly record = (event: RunEvent): void => {
    this.events.push(event);
  };

  private constructor(private props: CaseProps, runs: RunProps[]) {
    this.runs = runs.map((run) => Run.restore(run, this.record));
  }

  static open(input: NewCase, rules: StatusRules, now: Date): CaseDraft {
    const subject = input.subject?.trim() ? input.subject : defaultSubject(input.workflowName, input.sourceLabel ?? input.source, now);
    return {
      props: {
        organizationId: input.organizationId,
        workflowId: input.workflowId,
        workflowVersion: input.workflowVersion,
        subject,
        status: OPEN,
        outcome: null,
        mode: input.mode,
        source: input.source,
        attributes: input.attributes,
      },
      events: [{ type: 'created', actor: input.actor, source: input.source, mode: input.mode, status: OPEN, startsRun: !input.withoutRun && rules.hasRun(OPEN) }],
      ...(input.message ? { message: input.message } : {}),
    };
  }

  /** For the persistence mapper only: the case and its unfinished runs. */
  static restore(props: CaseProps, runs: RunProps[] = []): Case {
    return new Case({ ...props }, runs);
  }

  /** A worker takes the run `runId` if it is due; null when it ended, was superseded, or another worker holds it. */
  takeRun(runId: number): Run | null {
    const run = this.runs.find((r) => r.isStored && r.id === runId && r.unfinished && r.due);
    if (!run) return null;
    run.take();
    this.executing = run;
    return run;
  }

  /** The run this worker held across a call to the outside world, unless the case moved on meanwhile. */
  heldRun(runId: number): Run | null {
    const run = this.runs.find((r) => r.isStored && r.id === runId && r.state === 'running');
    this.executing = run;
    return run ?? null;
  }

  /** The mover's worker takes the run its move started at once: a chain of automatic moves runs in one go. */
  takeStartedRun(): Run | null {
    const run = this.started;
    this.started = undefined;
    if (!run) return null;
    run.take();
    this.executing = run;
    return run;
  }

  /**
   * Moves the case to `next`. Re-entering the current status is a move too: it is recorded
   * and starts that status's run again, which is how a caller re-triggers automation.
   * `outcome` is only for automation `close` steps; the API gets the workflow's default.
   */
  moveTo(next: string, rules: StatusRules, actor: Actor, options: { outcome?: string; reason?: string } = {}): void {
    if (next === ERROR && actor.kind !== 'engine') throw new StatusReservedForEngineError();
    if (!rules.statuses.has(next)) throw new StatusNotDeclaredError(next);
    const outcome = next === CLOSED ? (options.outcome ?? rules.defaultOutcome ?? FALLBACK_OUTCOME) : null;
    const from = this.props.status;
    this.props = { ...this.props, status: next, outcome };
    this.dropStartedRun();
    // The run making the move is not superseded: it ends after its move, as things happen.
    for (const run of this.runs) if (run.unfinished && run !== this.executing) run.supersede();
    const startsRun = rules.hasRun(next);
    const event: CaseEvent = { type: 'status_changed', actor, from, to: next, outcome, startsRun, ...(options.reason ? { reason: options.reason } : {}) };
    this.events.push(event);
    if (startsRun) this.startRun(next, event);
  }

  /** For the repository: the run `move` started, to insert with it; none when a later move dropped it. */
  runStartedBy(move: CaseEvent): Run | undefined {
    return this.startedBy.get(move);
  }

  private startRun(status: string, move: CaseEvent): void {
    const chainDepth = this.executing ? this.executing.chainDepth + 1 : 0;
    const run = Run.pending({ caseId: this.props.id, status, mode: this.props.mode, chainDepth }, this.record);
    this.runs.push(run);
    this.startedBy.set(move, run);
    this.started = run;
  }

  /** A move before anyone took the run the previous move started: that run never existed for anyone, so it is not stored. */
  private dropStartedRun(): void {
    const dropped = this.started;
    if (!dropped) return;
    this.runs.splice(this.runs.indexOf(dropped), 1);
    for (const event of this.events) if (this.startedBy.get(event) === dropped) this.startedBy.delete(event);
    this.started = undefined;
  }

  /**
   * Merges `patch` (JSON text of an object, already validated against the workflow's schema)
   * into the attributes, after removing the `removed` keys. The merge itself happens in storage, on the exact stored JSON.
   */
  mergeAttributes(patch: AttributesJson, keys: string[], actor: Actor, removed: string[] = []): void {
    this.events.push({ type: 'attributes_changed', actor, keys: [...keys, ...removed], patch, ...(removed.length ? { removed } : {}) });
  }

  /**
   * A reply to a message on the case arrived by email: recorded with its fields and files, and a
   * `Closed` case reopens (recorded as a move to `Open`, whose run starts), unless `reopens` is
   * false (mail a machine sent).
   */
  receiveEmail(email: Record<string, unknown>, message: ReceivedMessage, rules: StatusRules, reopens = true): void {
    const actor: Actor = { kind: 'email' };
    this.events.push({ type: 'email_received', actor, email, message });
    if (reopens && this.props.status === CLOSED) this.moveTo(OPEN, rules, actor);
  }

  /** Records on the timeline something done to the case that changes none of its fields (see the `noted` event). */
  note(note: string, actor: Actor, data: Record<string, unknown>): void {
    this.events.push({ type: 'noted', actor, note, data });
  }

  /**
   * Gives the case to `to` (its assignee and team, either null); recorded with both sides, as
   * people read them, when anything changes. Whether the assignee may work it was checked by
   * the caller, which knows the organization's people.
   */
  assign(from: Assignment, to: Assignment, actor: Actor): void {
    if (from.assignee?.id === to.assignee?.id && from.team?.id === to.team?.id) return;
    this.props = { ...this.props, assigneeId: to.assignee?.id ?? null, teamId: to.team?.id ?? null };
    this.events.push({ type: 'assigned', actor, from, to });
  }

  prioritize(priority: Priority, actor: Actor): void {
    const from = this.props.priority;
    if (from === priority) return;
    this.props = { ...this.props, priority };
    this.events.push({ type: 'priority_changed', actor, from, to: priority });
  }

  /** A person commented: recorded and told to subscribers; the status does not change. */
  comment(comment: CaseComment, actor: Actor): void {
    this.events.push({ type: 'comment_added', actor, comment });
  }

  /** The engine parks a case whose run failed. */
  park(rules: StatusRules, reason: string): void {
    this.moveTo(ERROR, rules, { kind: 'engine' }, { reason });
  }

  get id() { return this.props.id; }
  get status() { return this.props.status; }
  get outcome() { return this.props.outcome; }
  get mode() { return this.props.mode; }
  get workflowId() { return this.props.workflowId; }
  get workflowVersion() { return this.props.workflowVersion; }
  get organizationId() { return this.props.organizationId; }
  get assigneeId() { return this.props.assigneeId; }
  get teamId() { return this.props.teamId; }

  snapshot(): Readonly<CaseProps> {
    return this.props;
  }

  /** Events since the last call, for the repository to store with the change. */
  pullEvents(): CaseEvent[] {
    const events = this.events;
    this.events = [];
    return events;
  }
}

/** `<workflow name> via API - 2026-11-21 20:18:30 UTC` */
export function defaultSubject(workflowName: string, sourceLabel: string, now: Date): string {
  return `${workflowName} via ${sourceLabel} - ${secondStamp(now)} UTC`;
}

/** The last second written out: every webhook case of that second has the same stamp (a Date's formatting is not cheap). */
let lastStamp = { second: NaN, text: '' };

function secondStamp(now: Date): string {
  const second = Math.floor(now.getTime() / 1000);
  if (second !== lastStamp.second) lastStamp = { second, text: now.toISOString().slice(0, 19).replace('T', ' ') };
  return lastStamp.text;
}

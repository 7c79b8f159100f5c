import { CLOSED, ERROR, OPEN, type StatusRules } from '../../workflows/domain/status-rules.js';
import { StatusNotDeclaredError, StatusReservedForEngineError } from './case.errors.js';

export const FALLBACK_OUTCOME = 'Resolved';

export type CaseMode = 'live' | 'test';
export type CaseSource = 'API' | 'Webhook';

/** Who changed a case: an API token, a step of the workflow's automation, or the engine itself. */
export type Actor = { kind: 'api_token'; tokenId: number } | { kind: 'webhook' } | { kind: 'automation' } | { kind: 'engine' };

/** The exact JSON text of a case's attributes, kept as text so no number or key is ever altered. */
export type AttributesJson = string;

export type CaseEvent =
  | { type: 'created'; actor: Actor; source: CaseSource; mode: CaseMode; status: string; startsRun: boolean }
  | { type: 'status_changed'; actor: Actor; from: string; to: string; outcome: string | null; startsRun: boolean; reason?: string }
  | { type: 'attributes_changed'; actor: Actor; keys: string[]; patch: AttributesJson };

export interface CaseProps {
  id: number;
  organizationId: number;
  workflowId: number;
  workflowVersion: number;
  subject: string;
  status: string;
  outcome: string | null;
  mode: CaseMode;
  source: CaseSource;
  attributes: AttributesJson;
  createdAt: Date;
  updatedAt: Date;
}

export interface NewCase {
  organizationId: number;
  workflowId: number;
  workflowVersion: number;
  workflowName: string;
  subject?: string | null;
  mode: CaseMode;
  source: CaseSource;
  attributes: AttributesJson;
  actor: Actor;
}

/** A case not yet stored: what the repository inserts, with the events of its creation. */
export interface CaseDraft {
  readonly props: Omit<CaseProps, 'id' | 'createdAt' | 'updatedAt'>;
  readonly events: readonly CaseEvent[];
}

/**
 * The Case aggregate owns the status state machine: every case starts `Open` with no outcome;
 * the API and automations may move it to any declared status but `Error`; only the engine
 * parks a case in `Error`; entering `Closed` sets the outcome, leaving it clears it.
 * Every change is recorded as an event for the timeline.
 */
export class Case {
  private events: CaseEvent[] = [];

  private constructor(private props: CaseProps) {}

  static open(input: NewCase, rules: StatusRules, now: Date): CaseDraft {
    const subject = input.subject?.trim() ? input.subject : defaultSubject(input.workflowName, input.source, now);
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
      events: [{ type: 'created', actor: input.actor, source: input.source, mode: input.mode, status: OPEN, startsRun: rules.hasRun(OPEN) }],
    };
  }

  /** For the persistence mapper only. */
  static restore(props: CaseProps): Case {
    return new Case({ ...props });
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
    const startsRun = rules.hasRun(next);
    this.events.push({ type: 'status_changed', actor, from, to: next, outcome, startsRun, ...(options.reason ? { reason: options.reason } : {}) });
  }

  /**
   * Merges `patch` (JSON text of an object, already validated against the workflow's schema)
   * into the attributes. The merge itself happens in storage, on the exact stored JSON.
   */
  mergeAttributes(patch: AttributesJson, keys: string[], actor: Actor): void {
    this.events.push({ type: 'attributes_changed', actor, keys, patch });
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
export function defaultSubject(workflowName: string, source: CaseSource, now: Date): string {
  const stamp = now.toISOString().slice(0, 19).replace('T', ' ');
  return `${workflowName} via ${source} - ${stamp} UTC`;
}

import type { OnSlaKind } from '../../workflows/domain/on-sla-steps.js';
import type { CaseMode } from './case.js';

export type RunState = 'pending' | 'running' | 'waiting' | 'succeeded' | 'failed' | 'superseded';

/** What the run is parked for: the end of a `wait` step, or the next try of a step that failed. */
export type RunPause = { kind: 'wait' } | { kind: 'retry'; step: string; attempt: number; error: string };

export type RunEvent =
  /** The run's first taking by a worker. */
  | { type: 'run_started'; run: Run }
  /** A parked run taken again, or one taken over from a worker whose lease ran out. */
  | { type: 'run_resumed'; run: Run }
  /** The run keeps its worker while a step calls the outside world, for `leaseMs`. */
  | { type: 'run_held'; run: Run; leaseMs: number }
  /** The run waits `delayMs` before going on (the store says until when, on its clock). */
  | { type: 'run_parked'; run: Run; delayMs: number; pause: RunPause }
  | { type: 'run_finished'; run: Run; state: 'succeeded' | 'failed'; error: string | null }
  /** The case moved on before the run finished. */
  | { type: 'run_superseded'; run: Run }
  /** What a step did, for the timeline (an HTTP call made, for instance). */
  | { type: 'step_noted'; run: Run; step: string; note: Record<string, unknown> };

/**
 * One step a run executed, as stored with the run and shown by the admin API (hence its
 * field names). A step tried again after a failing call is one entry: `attempts` counts the
 * tries, `started_at` is the first one's.
 */
export interface TracedStep {
  /** JSON Pointer of the step (or `if`) in the workflow definition. */
  path: string;
  type: string;
  /** As a test run names it: change, sent, move, close, wait, then, else, retry, fail, error. */
  outcome: string;
  started_at: string;
  finished_at: string;
  attempts: number;
  http_status: number | null;
  /** With secret values masked, as the step runner gives every error. */
  error: string | null;
}

/**
 * How many steps a run's trace keeps; the steps after are only counted (`stepsOmitted`). A run
 * executes each instruction of its program at most once (an `if` jumps forward only, a retry is
 * one entry), so only a very long status's run reaches it; the bound keeps a row small whatever
 * a definition or an extension does.
 */
export const MAX_TRACED_STEPS = 100;

/** The steps a run traced since it was loaded, for the repository to append to the stored trace. */
export interface TraceAppend {
  steps: TracedStep[];
  /** Steps past MAX_TRACED_STEPS, only counted. */
  omitted: number;
  /** The first step is the one the run was retrying: it replaces the stored entry of the earlier tries. */
  replacesLast: boolean;
}

export interface RunProps {
  /** Undefined until the run, started by a move in this unit of work, is stored. */
  id: number | undefined;
  caseId: number;
  /** The status whose automation this run executes; for a run of `on_sla` steps, the case's status when it started. */
  status: string;
  /** Set on a run of the workflow's `on_sla` steps (sla.md section 3): which of them it executes instead of its status's. */
  onSla?: OnSlaKind;
  mode: CaseMode;
  /** How many automatic moves led to this run; the engine stops a chain that is too long. */
  chainDepth: number;
  state: RunState;
  /** Where the run goes on: an index into its status's compiled steps. */
  currentStep: number;
  /** Tries of the current step so far (retries of a failing HTTP call). */
  stepAttempts: number;
  /** How many times a worker took the run. */
  attempts: number;
  /** Whether a worker may take it as loaded: pending, held by a worker whose lease ran out, or its pause over. */
  due: boolean;
  createdAt: Date;
  /** How many steps the stored trace holds. */
  tracedSteps: number;
  /** Whether the stored trace ends with a failed try of the step the run is to try again (outcome `retry`). */
  retryTraced: boolean;
}

const UNFINISHED: ReadonlySet<RunState> = new Set(['pending', 'running', 'waiting']);

/**
 * One execution of a status's automation on a case; a child of the Case aggregate, changed
 * under the case's lock only. Each change is recorded on the case's events, in order, for the
 * repository to store with the case and the timeline.
 */
export class Run {
  private resumeAt: Date | undefined;
  private traced: TraceAppend;

  private constructor(private props: RunProps, private readonly record: (event: RunEvent) => void) {
    this.traced = { steps: [], omitted: 0, replacesLast: props.retryTraced };
  }

  /** The run a move starts: pending, for the relay to hand to a worker (or for the mover's worker to start). */
  static pending(fields: Pick<RunProps, 'caseId' | 'status' | 'mode' | 'chainDepth'>, record: (event: RunEvent) => void): Run {
    return new Run({ ...fields, id: undefined, state: 'pending', currentStep: 0, stepAttempts: 0, attempts: 0, due: true, createdAt: new Date(), tracedSteps: 0, retryTraced: false }, record);
  }

  /** For the persistence mapper only. */
  static restore(props: RunProps, record: (event: RunEvent) => void): Run {
    return new Run({ ...props }, record);
  }

  /** A worker takes the run: started the first time, resumed after that. */
  take(): void {
    if (!this.due || !this.unfinished) throw new Error(`run ${this.props.id} is not due`);
    const first = this.props.attempts === 0;
    this.props = { ...this.props, state: 'running', attempts: this.props.attempts + 1, due: false };
    this.record({ type: first ? 'run_started' : 'run_resumed', run: this });
  }

  /** Keeps the run with its worker while the step at `step` calls the outside world. */
  hold(step: number, leaseMs: number): void {
    const stepAttempts = step === this.props.currentStep ? this.props.stepAttempts : 0;
    this.props = { ...this.props, state: 'running', currentStep: step, stepAttempts };
    this.record({ type: 'run_held', run: this, leaseMs });
  }

  /** Parks the run for `delayMs`; it goes on at `step` (after a wait) or tries `step` again (a retry). */
  park(step: number, delayMs: number, pause: RunPause): void {
    const stepAttempts = pause.kind === 'retry' ? pause.attempt : 0;
    this.props = { ...this.props, state: 'waiting', currentStep: step, stepAttempts };
    this.record({ type: 'run_parked', run: this, delayMs, pause });
  }

  finish(state: 'succeeded' | 'failed', error: string | null = null): void {
    this.props = { ...this.props, state };
    this.record({ type: 'run_finished', run: this, state, error });
  }

  supersede(): void {
    this.props = { ...this.props, state: 'superseded' };
    this.record({ type: 'run_superseded', run: this });
  }

  note(step: string, note: Record<string, unknown>): void {
    this.record({ type: 'step_noted', run: this, step, note });
  }

  /** Adds a step to the run's trace, stored with the run's next change; past MAX_TRACED_STEPS it is only counted. */
  trace(step: TracedStep): void {
    const replacing = this.traced.replacesLast && this.traced.steps.length === 0;
    if (!replacing && this.props.tracedSteps >= MAX_TRACED_STEPS) {
      this.traced.omitted += 1;
      return;
    }
    this.traced.steps.push(step);
    if (!replacing) this.props = { ...this.props, tracedSteps: this.props.tracedSteps + 1 };
  }

  /** For the repository: the steps traced since the last call (or the load), to store with the run. */
  takeTrace(): TraceAppend {
    const taken = this.traced;
    this.traced = { steps: [], omitted: 0, replacesLast: taken.replacesLast && taken.steps.length === 0 };
    return taken;
  }

  /** For the repository: the id it gave a run a move started. */
  identify(id: number): void {
    this.props = { ...this.props, id };
  }

  /** For the repository: when the parked run goes on, on the store's clock. */
  resumesAt(at: Date): void {
    this.resumeAt = at;
  }

  get id() {
    if (this.props.id === undefined) throw new Error('the run is not stored yet');
    return this.props.id;
  }
  get isStored() { return this.props.id !== undefined; }
  get state() { return this.props.state; }
  get unfinished() { return UNFINISHED.has(this.props.state); }
  get due() { return this.props.due; }
  get caseId() { return this.props.caseId; }
  get status() { return this.props.status; }
  get onSla() { return this.props.onSla; }
  get mode() { return this.props.mode; }
  get chainDepth() { return this.props.chainDepth; }
  get currentStep() { return this.props.currentStep; }
  get stepAttempts() { return this.props.stepAttempts; }
  get attempts() { return this.props.attempts; }
  get createdAt() { return this.props.createdAt; }
  /** When a parked run goes on, as its store said. */
  get parkedUntil() { return this.resumeAt; }

  snapshot(): Readonly<RunProps> {
    return this.props;
  }
}

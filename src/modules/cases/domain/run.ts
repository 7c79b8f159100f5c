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

export interface RunProps {
  /** Undefined until the run, started by a move in this unit of work, is stored. */
  id: number | undefined;
  caseId: number;
  /** The status whose automation this run executes. */
  status: string;
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
}

const UNFINISHED: ReadonlySet<RunState> = new Set(['pending', 'running', 'waiting']);

/**
 * One execution of a status's automation on a case; a child of the Case aggregate, changed
 * under the case's lock only. Each change is recorded on the case's events, in order, for the
 * repository to store with the case and the timeline.
 */
export class Run {
  private resumeAt: Date | undefined;

  private constructor(private props: RunProps, private readonly record: (event: RunEvent) => void) {}

  /** The run a move starts: pending, for the relay to hand to a worker (or for the mover's worker to start). */
  static pending(fields: Pick<RunProps, 'caseId' | 'status' | 'mode' | 'chainDepth'>, record: (event: RunEvent) => void): Run {
    return new Run({ ...fields, id: undefined, state: 'pending', currentStep: 0, stepAttempts: 0, attempts: 0, due: true, createdAt: new Date() }, record);
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

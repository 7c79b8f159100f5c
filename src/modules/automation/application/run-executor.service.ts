import { Inject, Injectable } from '@nestjs/common';
import { Env } from '../../../shared/config/env.js';
import type { Transaction } from '../../../shared/database/transaction.js';
import { LOGGER, type Logger } from '../../../shared/logging/logger.js';
import { keepLease } from '../../../shared/queue/lease.js';
import type { Case, CaseProps } from '../../cases/domain/case.js';
import { CaseRepository } from '../../cases/domain/case.repository.js';
import { CaseBatches } from './case-batches.js';
import type { Run, TracedStep } from '../../cases/domain/run.js';
import { PublishedWorkflowsService } from '../../workflows/application/published-workflows.service.js';
import type { WorkflowVersion } from '../../workflows/domain/workflow-version.js';
import { compileRunWithPaths, conditionHolds, type Instruction, stepsOfRun } from '../domain/run-program.js';
import type { RunRef } from '../../cases/domain/run-queue.js';
import { RunLeases, RunMetrics, RunScheduler } from './run-engine.ports.js';
import { StepRunner, type StepSite } from './step-runner.js';
import { CaseNotifications } from '../../cases/application/case-notifications.js';
import { CaseAssigner } from './case-assigner.js';
import type { StepOutcome } from '../../../extension-api/step-types.js';
import { stepOutcomeName } from '../domain/step-outcome-name.js';
import type { TemplateScope } from '../domain/templates.js';

/** More automatic status moves than this in one chain is taken as a loop. */
export const MAX_AUTOMATIC_MOVES = 25;

type StepInstruction = Extract<Instruction, { op: 'step' }>;

/** A run that ended in a transaction, reported once the transaction committed. */
interface FinishedRun {
  run: Run;
  state: 'succeeded' | 'failed';
}

/** A status's compiled steps, with the JSON Pointer in the definition of each instruction's step. */
interface Program {
  instructions: Instruction[];
  paths: string[];
}

/** How a step went, for the run's trace. */
interface StepRan {
  type: string;
  startedAt: string;
  finishedAt: string;
  /** Of the last answer the step's requests got. */
  httpStatus: number | null;
}

/** The outcome of an external step, executed between transactions and not yet recorded. */
interface ExternalOutcome {
  pc: number;
  ran: StepRan;
  outcome: StepOutcome;
}

/** Where the steps of a stretch left the run they ended in (a move goes on with the next run). */
interface Applied {
  run: Run;
  finished: FinishedRun[];
  /** The external step the run is held at, to run outside the transaction. */
  externalAt?: number;
}

/**
 * How a stretch ended; `ref` is the run it ended in. The runs it started and finished are
 * counted once the transaction committed: a batch that fails runs its stretches again.
 */
type Stretch =
  /** Nothing more to do now: the run finished, failed, is parked, was superseded or is held by another worker. */
  | { kind: 'stopped'; ref: RunRef; started: Run[]; finished: FinishedRun[]; resumeAt?: Date }
  /** The run reached a step that talks to the outside world; it runs outside the transaction. */
  | { kind: 'external'; ref: RunRef; started: Run[]; finished: FinishedRun[]; run: Run; pc: number; scope: TemplateScope; case: CaseProps };

/**
 * Executes runs. The steps of a run that only touch the case are executed and committed
 * together, in one transaction under the case's row lock, with the run's progress; a step
 * that calls the outside world (`http_request`) runs between transactions, and its outcome is
 * committed with the steps after it. So a committed step never runs again after a crash, a
 * step never acts on a case that has moved on (the run is checked under the lock), and a
 * request whose outcome was not recorded is sent again.
 *
 * When a run moves the case, the run of the new status is executed right away, in the same
 * transaction: a chain of automatic moves commits once.
 */
@Injectable()
export class RunExecutor {
  private readonly programs = new Map<string, Program>();

  constructor(
    private readonly leases: RunLeases,
    private readonly batches: CaseBatches,
    private readonly cases: CaseRepository,
    private readonly workflows: PublishedWorkflowsService,
    private readonly metrics: RunMetrics,
    private readonly env: Env,
    private readonly steps: StepRunner,
    private readonly scheduler: RunScheduler,
    private readonly assigner: CaseAssigner,
    private readonly notifications: CaseNotifications,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Executes a run, and the runs its moves start, as far as they go now. */
  async execute(first: RunRef): Promise<void> {
    const version = await this.workflows.version(first.workflowId, first.workflowVersion);
    let ref = first;
    let external: ExternalOutcome | undefined;
    let releaseLease: (() => void) | undefined;
    try {
      for (;;) {
        const stretch = await this.batches.run(ref.caseId, (tx, subject) => this.runStretch(tx, subject, ref, version, external));
        for (const run of stretch.started) this.metrics.runStarted(run);
        for (const { run, state } of stretch.finished) this.reportFinished(run, state);
        if (stretch.kind === 'stopped') return await this.scheduleResumption(stretch.ref, stretch.resumeAt);
        if (stretch.ref.runId !== ref.runId) {
          releaseLease?.();
          releaseLease = undefined;
          ref = stretch.ref;
        }
        const runId = ref.runId;
        releaseLease ??= keepLease(() => this.leases.renewLease(runId, this.env.RUN_LEASE_MS), this.env.RUN_LEASE_MS);
        const instruction = this.program(version, stretch.run).instructions[stretch.pc] as StepInstruction;
        external = { pc: stretch.pc, ...(await this.runStep(instruction, { run: stretch.run, case: stretch.case, version, scope: stretch.scope })) };
      }
    } finally {
      releaseLease?.();
    }
  }

  /**
   * On the case, locked with its runs: takes the run (or keeps it, coming back from an external
   * step), applies its steps, and stores the case once: everything the stretch did commits
   * together.
   */
  private async runStretch(tx: Transaction, subject: Case | null, ref: RunRef, version: WorkflowVersion, external: ExternalOutcome | undefined): Promise<Stretch> {
    const run = external ? subject?.heldRun(ref.runId) : subject?.takeRun(ref.runId);
    if (!subject || !run) return { kind: 'stopped', ref, started: [], finished: [] };
    const started = external ? [] : [run];
    const scope = scopeOf(subject.snapshot());
    const applied = await this.applySteps(tx, subject, run, version, scope, external, started);
    const stored = await this.cases.save(tx, subject);
    const at = { ...ref, runId: applied.run.id };
    if (applied.externalAt === undefined) return { kind: 'stopped', ref: at, started, finished: applied.finished, resumeAt: applied.run.parkedUntil };
    return { kind: 'external', ref: at, started, finished: applied.finished, run: applied.run, pc: applied.externalAt, scope, case: stored };
  }

  /**
   * Records the outcome of the external step the run comes back from, if any, and executes
   * the run's steps until it ends, is parked or reaches an external step; a move goes on with
   * the run it starts (added to `started`). Changes the case and its runs in memory only; each
   * step is added to its run's trace, stored with the run.
   */
  private async applySteps(tx: Transaction, subject: Case, first: Run, version: WorkflowVersion, scope: TemplateScope, external: ExternalOutcome | undefined, started: Run[]): Promise<Applied> {
    let run = first;
    let program = this.program(version, run);
    let pc = external ? external.pc : run.currentStep;
    let pending = external;
    const finished: FinishedRun[] = [];
    for (;;) {
      const instruction = program.instructions[pc];
      let outcome: StepOutcome;
      let ran: StepRan;
      if (pending) {
        ({ outcome, ran } = pending);
        pending = undefined;
      } else if (!instruction) {
        run.finish('succeeded');
        return { run, finished: [...finished, { run, state: 'succeeded' }] };
      } else if (instruction.op === 'jump') {
        pc = instruction.target;
        continue;
      } else if (instruction.op === 'jump_unless') {
        const holds = conditionHolds(instruction.condition, scope);
        const at = new Date().toISOString();
        run.trace({ path: program.paths[pc]!, type: 'if', outcome: holds ? 'then' : 'else', started_at: at, finished_at: at, attempts: 1, http_status: null, error: null });
        pc = holds ? pc + 1 : instruction.target;
        continue;
      } else if (this.steps.isExternal(instruction.type)) {
        run.hold(pc, this.env.RUN_LEASE_MS);
        return { run, finished, externalAt: pc };
      } else {
        ({ outcome, ran } = await this.runStep(instruction, { run, case: subject.snapshot(), version, scope }));
      }
      if (outcome.kind === 'move' && run.chainDepth >= MAX_AUTOMATIC_MOVES) {
        outcome = { kind: 'fail', error: `more than ${MAX_AUTOMATIC_MOVES} automatic status moves in one chain: the workflow loops` };
      }
      // Tries before this one count only for the step the run was parked (or held) at.
      const attempts = pc === run.currentStep ? run.stepAttempts + 1 : 1;
      run.trace(tracedStep(program.paths[pc]!, ran, outcome, attempts));
      switch (outcome.kind) {
        case 'next':
        case 'change':
          if (outcome.note) run.note(ran.type, outcome.note);
          if (outcome.kind === 'change') mergeInto(subject, outcome.attributes, scope);
          pc += 1;
          continue;
        case 'move': {
          subject.moveTo(outcome.status, version, { kind: 'automation' }, { outcome: outcome.outcome });
          run.finish('succeeded');
          finished.push({ run, state: 'succeeded' });
          const next = subject.takeStartedRun();
          if (!next) return { run, finished };
          run = next;
          started.push(run);
          scope.case = caseScopeOf(subject.snapshot());
          program = this.program(version, run);
          pc = 0;
          continue;
        }
        case 'assign':
          await this.assigner.assign(tx, subject, run, outcome);
          pc += 1;
          continue;
        case 'wait':
          run.park(pc + 1, outcome.seconds * 1000, { kind: 'wait' });
          return { run, finished };
        case 'retry':
          run.park(pc, outcome.delayMs, { kind: 'retry', step: ran.type, attempt: run.stepAttempts + 1, error: outcome.error });
          return { run, finished };
        case 'fail':
          // The engine parks the case in Error with the reason; changes made earlier in the run stay.
          run.finish('failed', outcome.error);
          subject.park(version, outcome.error);
          // Queued with the move, in its transaction: a case-event listener would cost every intake statement a join.
          if (subject.mode === 'live') await this.notifications.notify({ organizationId: subject.organizationId, caseId: subject.id, kind: 'error', summary: `Case #${subject.id} “${subject.snapshot().subject}” moved to Error` }, tx);
          return { run, finished: [...finished, { run, state: 'failed' }] };
      }
    }
  }

  private async runStep(instruction: StepInstruction, site: StepSite): Promise<{ outcome: StepOutcome; ran: StepRan }> {
    let httpStatus: number | null = null;
    const startedAt = new Date().toISOString();
    const outcome = await this.steps.run(instruction.type, instruction.arg, { ...site, answered: (status) => (httpStatus = status) });
    return { outcome, ran: { type: instruction.type, startedAt, finishedAt: new Date().toISOString(), httpStatus } };
  }

  private reportFinished(run: Run, state: FinishedRun['state']): void {
    this.metrics.runFinished(run, state);
    if (state === 'failed') this.logger.info({ runId: run.id, caseId: run.caseId }, 'run failed; case parked in Error');
  }

  /** After the transaction committed: the delayed job that resumes a parked run. */
  private async scheduleResumption(ref: RunRef, resumeAt: Date | undefined): Promise<void> {
    if (!resumeAt) return;
    try {
      await this.scheduler.resumeAt(ref, resumeAt);
    } catch (err) {
      // Redis is down: the relay re-enqueues the run once it is overdue.
      this.logger.warn({ runId: ref.runId, err: String(err) }, 'could not schedule resumption; the relay will');
    }
  }

  private program(version: WorkflowVersion, run: Run): Program {
    const { steps, base } = stepsOfRun(version, run);
    const key = `${version.workflowId}:${version.version}:${base}`;
    let program = this.programs.get(key);
    if (!program) {
      const { program: instructions, paths } = compileRunWithPaths(steps);
      program = { instructions, paths: paths.map((path) => base + path) };
      this.programs.set(key, program);
    }
    return program;
  }
}

/** A step as the run's trace keeps it; its outcome named as a test run names it. */
function tracedStep(path: string, ran: StepRan, outcome: StepOutcome, attempts: number): TracedStep {
  return {
    path,
    type: ran.type,
    outcome: stepOutcomeName(ran.type, outcome, ran.httpStatus !== null),
    started_at: ran.startedAt,
    finished_at: ran.finishedAt,
    attempts,
    http_status: ran.httpStatus,
    error: outcome.kind === 'fail' || outcome.kind === 'retry' ? outcome.error : null,
  };
}

/** Merges a step's attribute patch into the case, and into the scope later steps of the stretch read. */
export function mergeInto(subject: Case, patch: Record<string, unknown>, scope: TemplateScope): void {
  subject.mergeAttributes(JSON.stringify(patch), Object.keys(patch), { kind: 'automation' });
  for (const [key, value] of Object.entries(patch)) Object.defineProperty(scope.attributes, key, { value, enumerable: true, writable: true, configurable: true });
}

export function scopeOf(c: Readonly<CaseProps>): TemplateScope {
  return { case: caseScopeOf(c), attributes: JSON.parse(c.attributes) as Record<string, unknown> };
}

/** The case's own fields in a scope: after a move, the attributes the scope holds are still the case's. */
export function caseScopeOf(c: Readonly<CaseProps>): TemplateScope['case'] {
  return { id: c.id, subject: c.subject, status: c.status, mode: c.mode, workflow_id: c.workflowId };
}

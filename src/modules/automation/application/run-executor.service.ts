import { InjectQueue } from '@nestjs/bull';
import { Inject, Injectable } from '@nestjs/common';
import type { Queue } from 'bull';
import { Env } from '../../../shared/config/env.js';
import { TransactionRunner, type Transaction } from '../../../shared/database/transaction.js';
import { LOGGER, type Logger } from '../../../shared/logging/logger.js';
import { keepLease } from '../../../shared/queue/lease.js';
import { Case, type CaseProps } from '../../cases/domain/case.js';
import { CaseRepository } from '../../cases/domain/case.repository.js';
import { PublishedWorkflowsService } from '../../workflows/application/published-workflows.service.js';
import type { WorkflowVersion } from '../../workflows/domain/workflow-version.js';
import { AUTOMATION_QUEUE, RUN_JOB, runJobOptions } from '../infrastructure/automation.queue.js';
import { AutomationMetrics } from '../infrastructure/automation.metrics.js';
import { compileRun, conditionHolds, type Instruction } from '../domain/run-program.js';
import { RunRepository, type RunRecord, type RunRef } from '../infrastructure/run.repository.js';
import { STEP_HANDLER_REGISTRY, type StepHandlerRegistry } from './step-handler.registry.js';
import type { StepContext, StepOutcome } from './steps/step-handler.js';
import { UnresolvableTemplateError, type TemplateScope } from '../domain/templates.js';

/** More automatic status moves than this in one chain is taken as a loop. */
export const MAX_AUTOMATIC_MOVES = 25;

type StepInstruction = Extract<Instruction, { op: 'step' }>;

/** A run that ended in a transaction, reported once the transaction committed. */
interface FinishedRun {
  run: RunRecord;
  state: 'succeeded' | 'failed';
}

/** The outcome of an external step, executed between transactions and not yet recorded. */
interface ExternalOutcome {
  run: RunRecord;
  pc: number;
  stepType: string;
  outcome: StepOutcome;
}

/** How a stretch ended; `ref` is the run it ended in (a move goes on with the next run). */
type Stretch =
  /** Nothing more to do now: the run finished, failed, is parked, was superseded or is held by another worker. */
  | { kind: 'stopped'; ref: RunRef; resumeAt?: Date }
  /** The run reached a step that talks to the outside world; it runs outside the transaction. */
  | { kind: 'external'; ref: RunRef; run: RunRecord; pc: number; scope: TemplateScope; case: CaseProps };

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
  private readonly programs = new Map<string, Instruction[]>();

  constructor(
    private readonly runs: RunRepository,
    private readonly cases: CaseRepository,
    private readonly workflows: PublishedWorkflowsService,
    private readonly transactions: TransactionRunner,
    private readonly metrics: AutomationMetrics,
    private readonly env: Env,
    @Inject(STEP_HANDLER_REGISTRY) private readonly handlers: StepHandlerRegistry,
    @InjectQueue(AUTOMATION_QUEUE) private readonly queue: Queue,
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
        const finished: FinishedRun[] = [];
        const stretch = await this.transactions.run((tx) => this.runStretch(tx, ref, version, external, finished));
        for (const { run, state } of finished) this.reportFinished(run, state);
        if (stretch.kind === 'stopped') return await this.scheduleResumption(stretch.ref, stretch.resumeAt);
        if (stretch.ref.runId !== ref.runId) {
          releaseLease?.();
          releaseLease = undefined;
          ref = stretch.ref;
        }
        const runId = ref.runId;
        releaseLease ??= keepLease(() => this.runs.renewLease(runId, this.env.RUN_LEASE_MS), this.env.RUN_LEASE_MS);
        const instruction = this.program(version, stretch.run.status)[stretch.pc] as StepInstruction;
        const outcome = await this.runStep(instruction, { run: stretch.run, case: stretch.case, version, scope: stretch.scope });
        external = { run: stretch.run, pc: stretch.pc, stepType: instruction.type, outcome };
      }
    } finally {
      releaseLease?.();
    }
  }

  /**
   * Locks the case, takes (or keeps) the run, records the outcome of its external step if it
   * comes back from one, and executes its steps until the run ends or reaches an external
   * step; a move goes on with the run it starts. Everything it did commits together.
   */
  private async runStretch(tx: Transaction, ref: RunRef, version: WorkflowVersion, external: ExternalOutcome | undefined, finished: FinishedRun[]): Promise<Stretch> {
    let subject = await this.cases.lock(tx, ref.caseId);
    if (!subject) return { kind: 'stopped', ref };
    let run = external ? ((await this.runs.isRunning(tx, ref.runId)) ? external.run : null) : await this.runs.claim(tx, ref.runId);
    if (!run) return { kind: 'stopped', ref };
    if (!external) this.metrics.runStarted(run);
    let program = this.program(version, run.status);
    let scope = scopeOf(subject.snapshot());
    let pc = external ? external.pc : run.currentStep;
    let pending = external;
    for (;;) {
      const instruction = program[pc];
      let outcome: StepOutcome;
      let stepType: string;
      if (pending) {
        ({ outcome, stepType } = pending);
        pending = undefined;
      } else if (!instruction) {
        await this.cases.store(tx, subject, run.chainDepth);
        await this.runs.finish(tx, run, 'succeeded', null);
        finished.push({ run, state: 'succeeded' });
        return { kind: 'stopped', ref };
      } else if (instruction.op === 'jump') {
        pc = instruction.target;
        continue;
      } else if (instruction.op === 'jump_unless') {
        pc = conditionHolds(instruction.condition, scope) ? pc + 1 : instruction.target;
        continue;
      } else if (this.handlers.get(instruction.type)?.external) {
        const stored = await this.cases.store(tx, subject, run.chainDepth);
        await this.runs.hold(tx, run, pc, this.env.RUN_LEASE_MS);
        const stepAttempts = pc === run.currentStep ? run.stepAttempts : 0;
        return { kind: 'external', ref, run: { ...run, currentStep: pc, stepAttempts }, pc, scope, case: stored.case };
      } else {
        stepType = instruction.type;
        outcome = await this.runStep(instruction, { run, case: subject.snapshot(), version, scope });
      }
      if (outcome.kind === 'move' && run.chainDepth >= MAX_AUTOMATIC_MOVES) {
        outcome = { kind: 'fail', error: `more than ${MAX_AUTOMATIC_MOVES} automatic status moves in one chain: the workflow loops` };
      }
      switch (outcome.kind) {
        case 'next':
        case 'change':
          if (outcome.note) await this.runs.recordEvent(tx, run.caseId, stepType, 'automation', { run_id: run.id, ...outcome.note });
          if (outcome.kind === 'change') mergeInto(subject, outcome.patch, scope);
          pc += 1;
          continue;
        case 'move': {
          outcome.apply(subject);
          const stored = await this.cases.store(tx, subject, run.chainDepth + 1, { runId: run.id, attempts: run.attempts });
          finished.push({ run, state: 'succeeded' });
          const nextRunId = stored.startedRunIds[0];
          if (nextRunId === undefined) return { kind: 'stopped', ref };
          ref = { ...ref, runId: nextRunId };
          run = RunRepository.started(nextRunId, run, stored.case.status);
          this.metrics.runStarted(run);
          subject = Case.restore(stored.case);
          scope = scopeOf(stored.case);
          program = this.program(version, run.status);
          pc = 0;
          continue;
        }
        case 'wait': {
          await this.cases.store(tx, subject, run.chainDepth);
          const resumeAt = await this.runs.park(tx, run, pc + 1, 0, outcome.seconds * 1000, { type: 'run_waiting', at: 'until', data: {} });
          return { kind: 'stopped', ref, resumeAt };
        }
        case 'retry': {
          const attempt = run.stepAttempts + 1;
          const resumeAt = await this.runs.park(tx, run, pc, attempt, outcome.delayMs, { type: `${stepType}_retry`, at: 'retry_at', data: { attempt, error: outcome.error } });
          return { kind: 'stopped', ref, resumeAt };
        }
        case 'fail':
          // The engine parks the case in Error with the reason; changes made earlier in the run stay.
          await this.cases.store(tx, subject, run.chainDepth);
          await this.runs.finish(tx, run, 'failed', outcome.error);
          subject.park(version, outcome.error);
          await this.cases.store(tx, subject, run.chainDepth);
          finished.push({ run, state: 'failed' });
          return { kind: 'stopped', ref };
      }
    }
  }

  private async runStep(instruction: StepInstruction, context: StepContext): Promise<StepOutcome> {
    const handler = this.handlers.get(instruction.type);
    if (!handler) return { kind: 'fail', error: `unknown step type ${instruction.type}` };
    try {
      return await handler.execute(instruction.arg, context);
    } catch (err) {
      if (err instanceof UnresolvableTemplateError) return { kind: 'fail', error: `${instruction.type}: ${err.message}` };
      throw err;
    }
  }

  private reportFinished(run: RunRecord, state: FinishedRun['state']): void {
    this.metrics.runFinished(run, state);
    if (state === 'failed') this.logger.info({ runId: run.id, caseId: run.caseId }, 'run failed; case parked in Error');
  }

  /** After the transaction committed: the delayed job that resumes a parked run. */
  private async scheduleResumption(ref: RunRef, resumeAt: Date | undefined): Promise<void> {
    if (!resumeAt) return;
    try {
      await this.queue.add(RUN_JOB, ref, runJobOptions(ref.runId, `resume-${resumeAt.getTime()}`, resumeAt));
    } catch (err) {
      // Redis is down: the relay re-enqueues the run once it is overdue.
      this.logger.warn({ runId: ref.runId, err: String(err) }, 'could not schedule resumption; the relay will');
    }
  }

  private program(version: WorkflowVersion, status: string): Instruction[] {
    const key = `${version.workflowId}:${version.version}:${status}`;
    let program = this.programs.get(key);
    if (!program) {
      program = compileRun(version.runOf(status) ?? []);
      this.programs.set(key, program);
    }
    return program;
  }
}

/** Merges a step's attribute patch into the case, and into the scope later steps of the stretch read. */
function mergeInto(subject: Case, patch: Record<string, unknown>, scope?: TemplateScope): void {
  subject.mergeAttributes(JSON.stringify(patch), Object.keys(patch), { kind: 'automation' });
  if (!scope) return;
  for (const [key, value] of Object.entries(patch)) Object.defineProperty(scope.attributes, key, { value, enumerable: true, writable: true, configurable: true });
}

function scopeOf(c: ReturnType<Case['snapshot']>): TemplateScope {
  return {
    case: { id: c.id, subject: c.subject, status: c.status, mode: c.mode, workflow_id: c.workflowId },
    attributes: JSON.parse(c.attributes) as Record<string, unknown>,
  };
}

import { InjectQueue } from '@nestjs/bull';
import { Inject, Injectable } from '@nestjs/common';
import type { Queue } from 'bull';
import { Env } from '../../shared/config/env.js';
import { TransactionRunner, type Transaction } from '../../shared/database/transaction.js';
import { LOGGER, type Logger } from '../../shared/logging/logger.js';
import type { Case } from '../cases/domain/case.js';
import { CaseRepository } from '../cases/domain/case.repository.js';
import type { WorkflowVersion } from '../workflows/workflow-version.js';
import { WorkflowsService } from '../workflows/workflows.service.js';
import { AUTOMATION_QUEUE, RUN_JOB, runJobOptions } from './automation.queue.js';
import { AutomationMetrics } from './automation.metrics.js';
import { compileRun, conditionHolds, type Instruction } from './run-program.js';
import { RunRepository, type RunRecord, type RunRef } from './run.repository.js';
import { STEP_HANDLER_REGISTRY, type StepHandlerRegistry } from './step-handler.registry.js';
import type { StepContext, StepOutcome } from './steps/step-handler.js';
import { UnresolvableTemplateError, type TemplateScope } from './templates.js';

/** More automatic status moves than this in one chain is taken as a loop. */
export const MAX_AUTOMATIC_MOVES = 25;

type StepInstruction = Extract<Instruction, { op: 'step' }>;

/** How a stretch of a run ended. */
type Stretch =
  /** The run cannot go on here: finished, failed, parked, superseded, or held by another worker. */
  | { kind: 'stopped'; resumeAt?: Date; next?: RunRef; finished?: { run: RunRecord; state: 'succeeded' | 'failed' } }
  /** The run reached a step that talks to the outside world; it runs outside the transaction. */
  | { kind: 'external'; run: RunRecord; pc: number; scope: TemplateScope; case: ReturnType<Case['snapshot']> };

/**
 * Executes runs. The steps of a run that only touch the case are executed and committed
 * together, in one transaction under the case's row lock, with the run's progress; a step
 * that calls the outside world (`http_request`) runs between transactions and only its
 * outcome is committed. So a committed step never runs again after a crash, a step never acts
 * on a case that has moved on (the run is checked under the lock), and a request whose outcome
 * was not recorded is sent again.
 *
 * When a run moves the case, the run of the new status is executed right away by the same
 * worker, without a round through the queue.
 */
@Injectable()
export class RunExecutor {
  private readonly programs = new Map<string, Instruction[]>();

  constructor(
    private readonly runs: RunRepository,
    private readonly cases: CaseRepository,
    private readonly workflows: WorkflowsService,
    private readonly transactions: TransactionRunner,
    private readonly metrics: AutomationMetrics,
    private readonly env: Env,
    @Inject(STEP_HANDLER_REGISTRY) private readonly handlers: StepHandlerRegistry,
    @InjectQueue(AUTOMATION_QUEUE) private readonly queue: Queue,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async execute(ref: RunRef): Promise<void> {
    let next: RunRef | undefined = ref;
    while (next) next = await this.executeRun(next);
  }

  /** Executes one run as far as it goes now; returns the run its move started, if any. */
  private async executeRun(ref: RunRef): Promise<RunRef | undefined> {
    const version = await this.workflows.version(ref.workflowId, ref.workflowVersion);
    const lease = this.env.RUN_LEASE_MS;
    let claimed: RunRecord | undefined;
    let heartbeat: NodeJS.Timeout | undefined;
    try {
      for (;;) {
        const stretch = await this.transactions.run((tx) => this.runStretch(tx, ref, version, claimed));
        if (stretch.kind === 'stopped') {
          await this.afterStop(stretch, ref);
          return stretch.next;
        }
        claimed = stretch.run;
        heartbeat ??= setInterval(() => this.runs.renewLease(ref.runId, lease).catch(() => undefined), lease / 3);
        const instruction = this.program(version, claimed.status)[stretch.pc] as StepInstruction;
        const outcome = await this.runStep(instruction, { run: claimed, case: stretch.case, version, scope: stretch.scope });
        const after = await this.transactions.run((tx) => this.commitExternal(tx, ref, claimed!, version, stretch.pc, instruction.type, outcome));
        if (after.kind === 'stopped') {
          await this.afterStop(after, ref);
          return after.next;
        }
        claimed = after.run;
      }
    } finally {
      clearInterval(heartbeat);
    }
  }

  /**
   * Locks the case, takes (or keeps) the run, and executes its steps from the current one
   * until the run ends or reaches an external step; everything it did commits together.
   */
  private async runStretch(tx: Transaction, ref: RunRef, version: WorkflowVersion, held: RunRecord | undefined): Promise<Stretch> {
    const subject = await this.cases.lock(tx, ref.caseId);
    if (!subject) return { kind: 'stopped' };
    const run = held ? ((await this.runs.isRunning(tx, ref.runId)) ? held : null) : await this.runs.claim(tx, ref.runId);
    if (!run) return { kind: 'stopped' };
    if (!held) this.metrics.runStarted(run);
    const program = this.program(version, run.status);
    const scope = scopeOf(subject.snapshot());
    let pc = run.currentStep;
    for (;;) {
      const instruction = program[pc];
      if (!instruction) {
        await this.cases.store(tx, subject, run.chainDepth);
        await this.runs.finish(tx, run, 'succeeded', null);
        return { kind: 'stopped', finished: { run, state: 'succeeded' } };
      }
      if (instruction.op === 'jump') {
        pc = instruction.target;
        continue;
      }
      if (instruction.op === 'jump_unless') {
        pc = conditionHolds(instruction.condition, scope) ? pc + 1 : instruction.target;
        continue;
      }
      if (this.handlers.get(instruction.type)?.external) {
        const stored = await this.cases.store(tx, subject, run.chainDepth);
        await this.runs.hold(tx, run, pc, this.env.RUN_LEASE_MS);
        const stepAttempts = pc === run.currentStep ? run.stepAttempts : 0;
        return { kind: 'external', run: { ...run, currentStep: pc, stepAttempts }, pc, scope, case: stored.case };
      }
      const outcome = await this.runStep(instruction, { run, case: subject.snapshot(), version, scope });
      if (outcome.kind === 'next' || outcome.kind === 'change') {
        if (outcome.note) await this.runs.recordEvent(tx, run.caseId, instruction.type, 'automation', { run_id: run.id, ...outcome.note });
        if (outcome.kind === 'change') mergeInto(subject, outcome.patch, scope);
        pc += 1;
        continue;
      }
      return this.end(tx, ref, run, subject, version, pc, instruction.type, outcome);
    }
  }

  /** Commits what an external step came back with. */
  private async commitExternal(tx: Transaction, ref: RunRef, run: RunRecord, version: WorkflowVersion, pc: number, stepType: string, outcome: StepOutcome): Promise<Stretch | { kind: 'continue'; run: RunRecord }> {
    const subject = await this.cases.lock(tx, ref.caseId);
    if (!subject || !(await this.runs.isRunning(tx, run.id))) return { kind: 'stopped' };
    if (outcome.kind === 'next' || outcome.kind === 'change') {
      if (outcome.note) await this.runs.recordEvent(tx, run.caseId, stepType, 'automation', { run_id: run.id, ...outcome.note });
      if (outcome.kind === 'change') mergeInto(subject, outcome.patch);
      await this.cases.store(tx, subject, run.chainDepth);
      await this.runs.advance(tx, run.id, pc + 1, this.env.RUN_LEASE_MS);
      return { kind: 'continue', run: { ...run, currentStep: pc + 1, stepAttempts: 0 } };
    }
    return this.end(tx, ref, run, subject, version, pc, stepType, outcome);
  }

  /** A step that ends this stretch of the run: a move, a wait, a retry or a failure. */
  private async end(
    tx: Transaction,
    ref: RunRef,
    run: RunRecord,
    subject: Case,
    version: WorkflowVersion,
    pc: number,
    stepType: string,
    outcome: Exclude<StepOutcome, { kind: 'next' | 'change' }>,
  ): Promise<Stretch> {
    if (outcome.kind === 'move' && run.chainDepth >= MAX_AUTOMATIC_MOVES) {
      return this.end(tx, ref, run, subject, version, pc, stepType, {
        kind: 'fail',
        error: `more than ${MAX_AUTOMATIC_MOVES} automatic status moves in one chain: the workflow loops`,
      });
    }
    switch (outcome.kind) {
      case 'move': {
        // The run ends before the move, so the move's supersession does not catch it.
        await this.cases.store(tx, subject, run.chainDepth);
        await this.runs.finish(tx, run, 'succeeded', null);
        outcome.apply(subject);
        const { startedRunIds } = await this.cases.store(tx, subject, run.chainDepth + 1);
        const next = startedRunIds[0] === undefined ? undefined : { ...ref, runId: startedRunIds[0] };
        return { kind: 'stopped', next, finished: { run, state: 'succeeded' } };
      }
      case 'wait': {
        await this.cases.store(tx, subject, run.chainDepth);
        const resumeAt = await this.runs.park(tx, run, pc + 1, 0, outcome.seconds * 1000, { type: 'run_waiting', at: 'until', data: {} });
        return { kind: 'stopped', resumeAt };
      }
      case 'retry': {
        const attempt = run.stepAttempts + 1;
        const resumeAt = await this.runs.park(tx, run, pc, attempt, outcome.delayMs, { type: `${stepType}_retry`, at: 'retry_at', data: { attempt, error: outcome.error } });
        return { kind: 'stopped', resumeAt };
      }
      case 'fail':
        // The engine parks the case in Error with the reason; changes made earlier in the run stay.
        await this.cases.store(tx, subject, run.chainDepth);
        await this.runs.finish(tx, run, 'failed', outcome.error);
        subject.park(version, outcome.error);
        await this.cases.store(tx, subject, run.chainDepth);
        return { kind: 'stopped', finished: { run, state: 'failed' } };
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

  /** After the transaction committed: metrics, and the delayed job that resumes a parked run. */
  private async afterStop(stretch: Extract<Stretch, { kind: 'stopped' }>, ref: RunRef): Promise<void> {
    if (stretch.finished) this.metrics.runFinished(stretch.finished.run, stretch.finished.state);
    if (stretch.finished?.state === 'failed') this.logger.info({ runId: ref.runId, caseId: ref.caseId }, 'run failed; case parked in Error');
    if (!stretch.resumeAt) return;
    try {
      await this.queue.add(RUN_JOB, ref, runJobOptions(ref.runId, `resume-${stretch.resumeAt.getTime()}`, stretch.resumeAt));
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

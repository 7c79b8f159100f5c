import { InjectQueue } from '@nestjs/bull';
import { Inject, Injectable } from '@nestjs/common';
import type { Queue } from 'bull';
import { TransactionRunner, type Transaction } from '../../shared/database/transaction.js';
import { Env } from '../../shared/config/env.js';
import { LOGGER, type Logger } from '../../shared/logging/logger.js';
import type { CaseProps } from '../cases/domain/case.js';
import { CaseRepository } from '../cases/domain/case.repository.js';
import type { WorkflowVersion } from '../workflows/workflow-version.js';
import { WorkflowsService } from '../workflows/workflows.service.js';
import { AUTOMATION_QUEUE, RUN_JOB, runJobOptions } from './automation.queue.js';
import { AutomationMetrics } from './automation.metrics.js';
import { compileRun, conditionHolds, type Instruction } from './run-program.js';
import { RunRepository, type RunRecord } from './run.repository.js';
import { STEP_HANDLER_REGISTRY, type StepHandlerRegistry } from './step-handler.registry.js';
import type { StepContext, StepOutcome } from './steps/step-handler.js';
import { UnresolvableTemplateError, type TemplateScope } from './templates.js';

/** More automatic status moves than this in one chain is taken as a loop. */
export const MAX_AUTOMATIC_MOVES = 25;

/**
 * Executes runs step by step. Every step's effect on the case is committed together with the
 * run's progress, under the case's row lock and only while the run is still current, so a step
 * never runs twice after a crash and never acts on a case that has moved on.
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

  async execute(runId: number): Promise<void> {
    const lease = this.env.RUN_LEASE_MS;
    const run = await this.runs.claim(runId, lease);
    if (!run) return;
    const heartbeat = setInterval(() => this.runs.renewLease(run.id, lease).catch(() => undefined), lease / 3);
    try {
      await this.executeClaimed(run);
    } finally {
      clearInterval(heartbeat);
    }
  }

  private async executeClaimed(run: RunRecord): Promise<void> {
    this.metrics.runStarted(run);
    const version = await this.workflows.version(run.workflowId, run.workflowVersion);
    const program = this.program(version, run.status);
    let caseProps = await this.currentCase(run);
    let pc = run.currentStep;

    while (caseProps) {
      const instruction = program[pc];
      if (!instruction) {
        await this.succeed(run);
        return;
      }
      const scope = scopeOf(caseProps);
      if (instruction.op === 'jump') {
        pc = instruction.target;
        continue;
      }
      if (instruction.op === 'jump_unless') {
        pc = conditionHolds(instruction.condition, scope) ? pc + 1 : instruction.target;
        continue;
      }
      const outcome = await this.runStep(instruction, { run, case: caseProps, version, scope });
      const next = await this.commit(run, version, pc, instruction.type, outcome);
      if (next === 'stop') return;
      caseProps = next;
      pc += 1;
    }
  }

  private async runStep(instruction: Extract<Instruction, { op: 'step' }>, context: StepContext): Promise<StepOutcome> {
    const handler = this.handlers.get(instruction.type);
    if (!handler) return { kind: 'fail', error: `unknown step type ${instruction.type}` };
    try {
      return await handler.execute(instruction.arg, context);
    } catch (err) {
      if (err instanceof UnresolvableTemplateError) return { kind: 'fail', error: `${instruction.type}: ${err.message}` };
      throw err;
    }
  }

  /** Commits a step's outcome; returns the case as it is now to go on, or 'stop'. */
  private async commit(run: RunRecord, version: WorkflowVersion, pc: number, stepType: string, outcome: StepOutcome): Promise<CaseProps | 'stop'> {
    if (outcome.kind === 'fail') {
      await this.fail(run, version, outcome.error);
      return 'stop';
    }
    if (outcome.kind === 'move' && run.chainDepth >= MAX_AUTOMATIC_MOVES) {
      await this.fail(run, version, `more than ${MAX_AUTOMATIC_MOVES} automatic status moves in one chain: the workflow loops`);
      return 'stop';
    }
    let resumeAt: Date | undefined;
    const result = await this.transactions.run(async (tx) => {
      const subject = await this.lockIfCurrent(tx, run);
      if (!subject) return 'stop' as const;
      switch (outcome.kind) {
        case 'next':
        case 'change': {
          if (outcome.note) await this.runs.recordEvent(tx, run.caseId, stepType, 'automation', { run_id: run.id, ...outcome.note });
          if (outcome.kind === 'change') outcome.apply(subject);
          const stored = await this.cases.store(tx, subject, run.chainDepth);
          await this.runs.advance(tx, run.id, pc + 1, this.env.RUN_LEASE_MS);
          return stored;
        }
        case 'move':
          // The run ends before the move, so the move's supersession does not catch it.
          await this.runs.finish(tx, run.id, 'succeeded', null);
          await this.runs.recordEvent(tx, run.caseId, 'run_succeeded', 'engine', { run_id: run.id, status: run.status });
          outcome.apply(subject);
          await this.cases.store(tx, subject, run.chainDepth + 1);
          return 'moved' as const;
        case 'wait':
          resumeAt = await this.runs.park(tx, run.id, pc + 1, 0, outcome.seconds * 1000);
          await this.runs.recordEvent(tx, run.caseId, 'run_waiting', 'engine', { run_id: run.id, until: resumeAt.toISOString() });
          return 'stop' as const;
        case 'retry':
          resumeAt = await this.runs.park(tx, run.id, pc, run.stepAttempts + 1, outcome.delayMs);
          await this.runs.recordEvent(tx, run.caseId, `${stepType}_retry`, 'engine', { run_id: run.id, attempt: run.stepAttempts + 1, error: outcome.error, retry_at: resumeAt.toISOString() });
          return 'stop' as const;
      }
    });
    if (result === 'moved') this.metrics.runFinished(run, 'succeeded');
    if (resumeAt) await this.schedule(run.id, resumeAt);
    if (result === 'stop' || result === 'moved') return 'stop';
    run.stepAttempts = 0;
    return result;
  }

  /** The run fails and the engine parks the case in Error with the reason. */
  private async fail(run: RunRecord, version: WorkflowVersion, error: string): Promise<void> {
    const done = await this.transactions.run(async (tx) => {
      const subject = await this.lockIfCurrent(tx, run);
      if (!subject) return false;
      await this.runs.finish(tx, run.id, 'failed', error);
      await this.runs.recordEvent(tx, run.caseId, 'run_failed', 'engine', { run_id: run.id, status: run.status, error });
      subject.park(version, error);
      await this.cases.store(tx, subject, run.chainDepth);
      return true;
    });
    if (done) this.metrics.runFinished(run, 'failed');
    this.logger.info({ runId: run.id, caseId: run.caseId }, 'run failed; case parked in Error');
  }

  private async succeed(run: RunRecord): Promise<void> {
    const done = await this.transactions.run(async (tx) => {
      if (!(await this.lockIfCurrent(tx, run))) return false;
      await this.runs.finish(tx, run.id, 'succeeded', null);
      await this.runs.recordEvent(tx, run.caseId, 'run_succeeded', 'engine', { run_id: run.id, status: run.status });
      return true;
    });
    if (done) this.metrics.runFinished(run, 'succeeded');
  }

  /** Locks the case, then checks the run was not superseded meanwhile (same lock order as a PATCH). */
  private async lockIfCurrent(tx: Transaction, run: RunRecord) {
    const subject = await this.cases.lock(tx, run.caseId);
    if (!subject || !(await this.runs.isRunning(tx, run.id))) return null;
    return subject;
  }

  private async currentCase(run: RunRecord): Promise<CaseProps | null> {
    return this.cases.find(run.organizationId, run.workflowId, run.caseId);
  }

  private async schedule(runId: number, resumeAt: Date): Promise<void> {
    try {
      await this.queue.add(RUN_JOB, { runId }, runJobOptions(runId, `resume-${resumeAt.getTime()}`, resumeAt));
    } catch (err) {
      // Redis is down: the relay re-enqueues the run once it is overdue.
      this.logger.warn({ runId, err: String(err) }, 'could not schedule resumption; the relay will');
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

function scopeOf(c: CaseProps): TemplateScope {
  return {
    case: { id: c.id, subject: c.subject, status: c.status, mode: c.mode, workflow_id: c.workflowId },
    attributes: JSON.parse(c.attributes) as Record<string, unknown>,
  };
}

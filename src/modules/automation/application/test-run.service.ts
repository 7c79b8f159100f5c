import { Injectable } from '@nestjs/common';
import type { StepOutcome } from '../../../extension-api/step-types.js';
import { InvalidRequestError, NotFoundError } from '../../../shared/errors/app-error.js';
import type { OnSlaKind } from '../../workflows/domain/on-sla-steps.js';
import { TransactionRunner } from '../../../shared/database/transaction.js';
import { OutboundHttp } from '../../../shared/outbound/outbound-http.js';
import { AuditTrail } from '../../audit/application/audit-trail.js';
import type { ChangeAuthor } from '../../audit/domain/audit-entry.js';
import { Case } from '../../cases/domain/case.js';
import { checkNewCaseAttributes } from '../../cases/domain/new-case-attributes.js';
import type { Run } from '../../cases/domain/run.js';
import { PublishedWorkflowsService } from '../../workflows/application/published-workflows.service.js';
import { WorkflowDraftsService } from '../../workflows/application/workflow-drafts.service.js';
import { CLOSED, ERROR } from '../../workflows/domain/status-rules.js';
import { WorkflowNotPublishedError } from '../../workflows/domain/workflow.errors.js';
import { WorkflowVersion } from '../../workflows/domain/workflow-version.js';
import { compileRunWithPaths, conditionHolds, stepsOfRun } from '../domain/run-program.js';
import { stepOutcomeName } from '../domain/step-outcome-name.js';
import type { TemplateScope } from '../domain/templates.js';
import { caseScopeOf, mergeInto, scopeOf } from './run-executor.service.js';
import { StepRunner } from './step-runner.js';
import { CaseAssigner, noteOf } from './case-assigner.js';
import type { TeamPick } from './team-assignments.js';

type AssignOutcome = Extract<StepOutcome, { kind: 'assign' }>;
import { MAX_TEST_RUN_MS, TestRunBudget, TestRunHttp } from './test-run-http.js';

/** Status moves a test run follows; the next one ends it with `move_limit`. */
export const MAX_TEST_RUN_MOVES = 20;

export interface TestRunRequest {
  definition: 'draft' | 'published';
  status: string;
  /** Runs the definition's `on_sla` steps of that kind first, on a case in `status`, instead of the status's automation. */
  on_sla?: OnSlaKind;
  attributes: Record<string, unknown>;
  send_requests: boolean;
  /** Whether the run reads the organization's secrets: only for a caller who may (`admin` and up); others' steps get `[secret NAME]`. */
  readSecrets: boolean;
}

/** Which step ran, where in the definition, for how long. */
interface StepRan {
  path: string;
  type: string;
  duration_ms: number;
}

/** A step as a test run shows it: what it ran into (`outcome`) and, by outcome, what it would change. */
export type TracedStep = StepRan & { outcome: string } & Record<string, unknown>;

export interface TestRunReport {
  steps: TracedStep[];
  final: { status: string; outcome: string | null; attributes: Record<string, unknown> };
  stopped_because: 'finished' | 'closed' | 'failed' | 'error' | 'move_limit' | 'budget';
}

/**
 * Runs a workflow's automation on a case that exists only in memory, and reports every step.
 * It is the engine's own machinery (the compiled run program, the StepRunner with the
 * registered step types, the Case aggregate's status machine, the engine's attribute merge),
 * so a test run and a real run cannot disagree; what differs is that nothing is stored (a run that sends is audited), a
 * `wait` is skipped, and outgoing requests are captured (or sent marked as a test run).
 */
@Injectable()
export class TestRunService {
  constructor(
    private readonly drafts: WorkflowDraftsService,
    private readonly published: PublishedWorkflowsService,
    private readonly steps: StepRunner,
    private readonly outbound: OutboundHttp,
    private readonly transactions: TransactionRunner,
    private readonly audit: AuditTrail,
    private readonly assigner: CaseAssigner,
  ) {}

  async run(by: ChangeAuthor, organizationId: number, workflowId: number, request: TestRunRequest): Promise<TestRunReport> {
    const version = await this.versionToTest(organizationId, workflowId, request.definition);
    const statusProblem = request.status === ERROR ? 'only the engine moves a case to "Error"' : version.statuses.has(request.status) ? undefined : `status "${request.status}" is not declared`;
    if (statusProblem) throw new InvalidRequestError('status must be a declared status other than Error', [{ path: '/status', error: statusProblem }]);
    const text = JSON.stringify(request.attributes);
    // As a case would be refused (422 attributes_validation_failed), before anything runs.
    checkNewCaseAttributes(version, { value: request.attributes, text });
    const now = new Date();
    const subject = Case.restore(
      { id: 0, organizationId, workflowId, workflowVersion: version.version, subject: 'Test run', status: request.status, outcome: null, mode: 'test', source: 'API', attributes: text, priority: 'normal', assigneeId: null, teamId: null, createdAt: now, updatedAt: now },
      [{ id: 0, caseId: 0, status: request.status, ...(request.on_sla ? { onSla: request.on_sla } : {}), mode: 'test', chainDepth: 0, state: 'pending', currentStep: 0, stepAttempts: 0, attempts: 0, due: true, createdAt: now, tracedSteps: 0, retryTraced: false }],
    );
    if (request.send_requests) {
      // Recorded before anything is sent, so a run that fails or takes down its process is recorded too.
      await this.transactions.run((tx) => this.audit.record(tx, {
        organizationId, by, action: 'workflow.test_run_sent', target: { type: 'workflow', id: String(workflowId) },
        summary: { definition: request.definition, secrets: request.readSecrets ? 'read' : 'stand_ins' },
      }));
    }
    const budget = new TestRunBudget(Date.now() + MAX_TEST_RUN_MS);
    // Whom an assign step would pick now: read under the team's lock like a real run's, and nothing stored.
    const preview = (outcome: AssignOutcome) => this.transactions.run((tx) => this.assigner.preview(tx, subject, outcome));
    const walk = new TestRunWalk(subject, subject.takeRun(0)!, version, this.steps, budget, !request.readSecrets, () => new TestRunHttp(request.send_requests, this.outbound, budget), preview);
    const stoppedBecause = await walk.go();
    const { steps, final } = walk.shown({ steps: walk.trace, final: { status: subject.status, outcome: subject.outcome, attributes: walk.scope.attributes } });
    return { steps, final, stopped_because: stoppedBecause };
  }

  /** `published` is the latest published version, refused (422) while the workflow is unpublished. */
  private async versionToTest(organizationId: number, workflowId: number, which: TestRunRequest['definition']): Promise<WorkflowVersion> {
    if (which === 'draft') return new WorkflowVersion(workflowId, 0, await this.drafts.checkedDraft(organizationId, workflowId));
    const state = await this.published.state(workflowId);
    if (!state || state.organizationId !== organizationId) throw new NotFoundError('workflow');
    if (!state.published || !state.current) throw new WorkflowNotPublishedError();
    return state.current;
  }
}

/** One test run's walk through the program of each status it enters, as RunExecutor.applySteps does. */
class TestRunWalk {
  readonly trace: TracedStep[] = [];
  readonly scope: TemplateScope;
  private moves = 0;
  /** The clients of the steps that ran: each masks the secrets its step read. */
  private readonly clients: TestRunHttp[] = [];

  constructor(
    private readonly subject: Case,
    private run: Run,
    private readonly version: WorkflowVersion,
    private readonly steps: StepRunner,
    private readonly budget: TestRunBudget,
    private readonly secretStandIns: boolean,
    private readonly httpForStep: () => TestRunHttp,
    private readonly preview: (outcome: AssignOutcome) => Promise<TeamPick>,
  ) {
    this.scope = scopeOf(subject.snapshot());
  }

  async go(): Promise<TestRunReport['stopped_because']> {
    for (;;) {
      const { steps, base } = stepsOfRun(this.version, this.run);
      const { program, paths } = compileRunWithPaths(steps);
      let pc = 0;
      let moved = false;
      while (!moved && pc < program.length) {
        const instruction = program[pc]!;
        const path = base + paths[pc];
        if (instruction.op === 'jump') {
          pc = instruction.target;
        } else if (instruction.op === 'jump_unless') {
          const holds = conditionHolds(instruction.condition, this.scope);
          this.trace.push({ path, type: 'if', outcome: holds ? 'then' : 'else', duration_ms: 0 });
          pc = holds ? pc + 1 : instruction.target;
        } else {
          const started = Date.now();
          if (!this.budget.hasTime(started)) return this.overBudget({ path, type: instruction.type, duration_ms: 0 });
          const http = this.httpForStep();
          this.clients.push(http);
          const outcome = await this.steps.run(instruction.type, instruction.arg, {
            run: this.run, case: this.subject.snapshot(), version: this.version, scope: this.scope, http: (redact) => http.client(redact), secretStandIns: this.secretStandIns,
          });
          const step = { path, type: instruction.type, duration_ms: Date.now() - started };
          // A request cut at the deadline fails its step: that is the budget too, not the receiver.
          if (this.budget.spent || ((outcome.kind === 'retry' || outcome.kind === 'fail') && !this.budget.hasTime())) return this.overBudget(step, http);
          const picked = outcome.kind === 'assign' ? await this.preview(outcome) : undefined;
          const stop = this.apply(step, outcome, http, picked);
          if (stop) return stop;
          if (outcome.kind === 'move') moved = true;
          pc += 1;
        }
      }
      this.run.finish('succeeded');
      const next = moved ? this.subject.takeStartedRun() : null;
      if (!next) return this.subject.status === CLOSED ? 'closed' : 'finished';
      // Test runs store nothing: id 0 only names the run in the steps' log lines.
      next.identify(0);
      this.run = next;
      this.scope.case = caseScopeOf(this.subject.snapshot());
    }
  }

  /**
   * `report` with every secret any step of the run read masked: an answer a step saved can echo
   * a secret, and a later step (a copy by set_attributes, a fail step's message, a close's
   * outcome) can show it again, though that step read no secret itself.
   */
  shown<T>(report: T): T {
    return this.clients.reduce((value, http) => http.shown(value), report as unknown) as T;
  }

  /** The run stops where its budget ran out: the step is traced with why, and the case stays where it was (no real run would stop there). */
  private overBudget(step: StepRan, http?: TestRunHttp): 'budget' {
    const request = http?.requests.at(-1);
    this.trace.push({ ...step, outcome: 'error', error: this.budget.explain(), ...(request ? { request: request.request } : {}) });
    return 'budget';
  }

  /** Traces the step's outcome and applies it to the in-memory case; says why the run stops, if it does. */
  private apply(step: StepRan, outcome: StepOutcome, http: TestRunHttp, picked?: TeamPick): TestRunReport['stopped_because'] | undefined {
    const [request] = http.requests;
    if (request && !http.sends) {
      // What the step did after a call it never made rests on a stand-in answer: the run goes on as if the call succeeded.
      this.trace.push({ ...step, outcome: 'not_sent', request: request.request });
      return undefined;
    }
    const shown = request ? { request: request.request, ...(request.response ? { response: request.response } : {}) } : {};
    switch (outcome.kind) {
      case 'next':
      case 'change': {
        const changes = outcome.kind === 'change' ? outcome.attributes : undefined;
        if (changes) mergeInto(this.subject, changes, this.scope);
        this.trace.push({ ...step, outcome: stepOutcomeName(step.type, outcome, request !== undefined), ...shown, ...(changes ? { changes } : {}) });
        return undefined;
      }
      case 'wait':
        this.trace.push({ ...step, outcome: 'wait', seconds: outcome.seconds });
        return undefined;
      case 'assign':
        this.trace.push({ ...step, outcome: 'assign', ...noteOf(outcome, picked!) });
        return undefined;
      case 'move':
        if (this.moves === MAX_TEST_RUN_MOVES) {
          this.trace.push({ ...step, outcome: 'move', to: outcome.status, followed: false });
          return 'move_limit';
        }
        this.moves += 1;
        this.subject.moveTo(outcome.status, this.version, { kind: 'automation' }, { outcome: outcome.outcome });
        this.trace.push({ ...step, outcome: stepOutcomeName(step.type, outcome, false), to: outcome.status, ...(outcome.status === CLOSED ? { case_outcome: this.subject.outcome } : {}) });
        return undefined;
      case 'retry':
      case 'fail': {
        // A real run retries a failing call later and fails once its retries are spent; a test run makes one attempt.
        const name = outcome.kind === 'retry' ? 'error' : stepOutcomeName(step.type, outcome, false);
        const failStep = name === 'fail';
        this.trace.push({ ...step, outcome: name, error: outcome.error, ...shown });
        this.run.finish('failed', outcome.error);
        this.subject.park(this.version, outcome.error);
        return failStep ? 'failed' : 'error';
      }
    }
  }
}

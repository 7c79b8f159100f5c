import type { Case, CaseProps } from '../../../cases/domain/case.js';
import type { WorkflowVersion } from '../../../workflows/domain/workflow-version.js';
import type { Run } from '../../../cases/domain/run.js';
import type { TemplateScope } from '../../domain/templates.js';

export interface StepContext {
  run: Run;
  case: CaseProps;
  version: WorkflowVersion;
  /** `case.*` and the parsed attributes, for templates and conditions. */
  scope: TemplateScope;
}

/** What a step wants the engine to do; the engine commits it together with the run's progress. */
export type StepOutcome =
  /** Nothing to store; go on with the next step. */
  | { kind: 'next'; note?: Record<string, unknown> }
  /** Merge `patch` into the case's attributes (already checked against the schema) and go on. */
  | { kind: 'change'; patch: Record<string, unknown>; note?: Record<string, unknown> }
  /** Move the case to another status: this run ends, the new status's run starts. */
  | { kind: 'move'; apply: (subject: Case) => void }
  /** Resume with the next step after `seconds`. */
  | { kind: 'wait'; seconds: number }
  /** Run this same step again after `delayMs` (a retry with backoff). */
  | { kind: 'retry'; delayMs: number; error: string }
  /** Fail the run: the case is parked in Error with this reason. */
  | { kind: 'fail'; error: string };

/**
 * One kind of step. To add a step type: write a class implementing this in steps/, list it in
 * steps/index.ts, and accept its shape in workflow-definition.ts.
 */
export interface StepHandler {
  readonly type: string;
  /**
   * A step that talks to the outside world runs outside any database transaction, and only its
   * outcome is committed. Other steps of a run are executed and committed together, in one
   * transaction per stretch of steps.
   */
  readonly external?: boolean;
  execute(arg: unknown, context: StepContext): Promise<StepOutcome>;
}

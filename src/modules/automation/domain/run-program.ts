import { isDeepStrictEqual } from 'node:util';
import { pointer } from '../../../shared/json/json-pointer.js';
import type { OnSlaKind } from '../../workflows/domain/on-sla-steps.js';
import type { Step } from '../../workflows/domain/workflow-definition.js';
import type { WorkflowVersion } from '../../workflows/domain/workflow-version.js';
import { lookup, type TemplateScope } from './templates.js';

export interface Condition {
  field: string;
  equals?: unknown;
  not_equals?: unknown;
  in?: unknown[];
  exists?: boolean;
}

/**
 * A run's steps flattened into a list with jumps, so the progress of a run is one integer
 * (`current_step`) that survives a worker crash: `if` becomes a conditional jump.
 */
export type Instruction =
  | { op: 'step'; type: string; arg: unknown }
  | { op: 'jump_unless'; condition: Condition; target: number }
  | { op: 'jump'; target: number };

/**
 * The program, and for each instruction the JSON Pointer of the step (or `if`) it came from,
 * relative to the status's step list: what a test run and a run's trace show beside each step.
 */
export function compileRunWithPaths(steps: Step[]): { program: Instruction[]; paths: string[] } {
  const program: Instruction[] = [];
  const paths: string[] = [];
  const emit = (list: Step[], at: string) => {
    list.forEach((step, index) => {
      const path = `${at}/${index}`;
      if ('if' in step) {
        const branch: Instruction = { op: 'jump_unless', condition: step.if as Condition, target: -1 };
        program.push(branch);
        paths.push(path);
        emit(step.then as Step[], `${path}/then`);
        if (Array.isArray(step.else) && step.else.length) {
          const skipElse: Instruction = { op: 'jump', target: -1 };
          program.push(skipElse);
          paths.push(path);
          branch.target = program.length;
          emit(step.else as Step[], `${path}/else`);
          skipElse.target = program.length;
        } else {
          branch.target = program.length;
        }
      } else {
        const [type] = Object.keys(step);
        program.push({ op: 'step', type: type!, arg: step[type!] });
        paths.push(path);
      }
    });
  };
  emit(steps, '');
  return { program, paths };
}

/**
 * The steps a run executes, with the JSON Pointer of their list in the definition: its status's
 * automation, or the `on_sla` steps it was started for (sla.md section 3).
 */
export function stepsOfRun(version: WorkflowVersion, run: { status: string; onSla?: OnSlaKind | undefined }): { steps: Step[]; base: string } {
  if (run.onSla) return { steps: version.slaRunOf(run.onSla) ?? [], base: pointer('/on_sla', run.onSla) };
  return { steps: version.runOf(run.status) ?? [], base: pointer('/automations', run.status) };
}

export function conditionHolds(condition: Condition, scope: TemplateScope): boolean {
  const value = lookup(scope, condition.field);
  if ('exists' in condition) return (value !== undefined && value !== null) === condition.exists;
  if ('equals' in condition) return isDeepStrictEqual(value, condition.equals);
  if ('not_equals' in condition) return !isDeepStrictEqual(value, condition.not_equals);
  if ('in' in condition) return (condition.in ?? []).some((candidate) => isDeepStrictEqual(value, candidate));
  return false;
}

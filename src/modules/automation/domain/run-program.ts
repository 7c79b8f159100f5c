import { isDeepStrictEqual } from 'node:util';
import type { Step } from '../../workflows/domain/workflow-definition.js';
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

export function compileRun(steps: Step[]): Instruction[] {
  const program: Instruction[] = [];
  const emit = (list: Step[]) => {
    for (const step of list) {
      if ('if' in step) {
        const branch: Instruction = { op: 'jump_unless', condition: step.if as Condition, target: -1 };
        program.push(branch);
        emit(step.then as Step[]);
        if (Array.isArray(step.else) && step.else.length) {
          const skipElse: Instruction = { op: 'jump', target: -1 };
          program.push(skipElse);
          branch.target = program.length;
          emit(step.else as Step[]);
          skipElse.target = program.length;
        } else {
          branch.target = program.length;
        }
      } else {
        const [type] = Object.keys(step);
        program.push({ op: 'step', type: type!, arg: step[type!] });
      }
    }
  };
  emit(steps);
  return program;
}

export function conditionHolds(condition: Condition, scope: TemplateScope): boolean {
  const value = lookup(scope, condition.field);
  if ('exists' in condition) return (value !== undefined && value !== null) === condition.exists;
  if ('equals' in condition) return isDeepStrictEqual(value, condition.equals);
  if ('not_equals' in condition) return !isDeepStrictEqual(value, condition.not_equals);
  if ('in' in condition) return (condition.in ?? []).some((candidate) => isDeepStrictEqual(value, candidate));
  return false;
}

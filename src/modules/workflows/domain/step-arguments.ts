import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { StepTypeDefinition } from '../../../extension-api/step-types.js';
import type { ValidationProblem } from '../../../shared/errors/app-error.js';
import { pointer } from '../../../shared/json/json-pointer.js';

/** What a definition needs to know of a step type: its name and how to check its arguments. */
export type StepShape = Pick<StepTypeDefinition, 'type' | 'argumentsSchema' | 'check'>;

/** The step types a definition may use, each checking the arguments of its steps. */
export interface StepArgumentRules {
  readonly types: readonly string[];
  /**
   * Reports the problems of one step's arguments at JSON Pointers under `at`; false when no
   * step type has that name.
   */
  check(type: string, args: unknown, at: string, statuses: ReadonlySet<string>, report: (path: string, error: string) => void): boolean;
}

const ajv = new Ajv({ allErrors: true, strict: false, ownProperties: true, allowUnionTypes: true });

/**
 * Compiles every step type's argument schema once. A step's arguments are refused when the
 * schema refuses them or the type's own check reports a problem; the check's words, when it
 * has any, stand in for the schema's, so a type can say what it expects in one message.
 */
export function compileStepArguments(shapes: readonly StepShape[]): StepArgumentRules {
  const compiled = new Map<string, { shape: StepShape; validate: ValidateFunction }>();
  for (const shape of shapes) {
    try {
      compiled.set(shape.type, { shape, validate: ajv.compile(shape.argumentsSchema) });
    } catch (err) {
      throw new Error(`step type "${shape.type}": its argumentsSchema is not a valid JSON Schema (${err instanceof Error ? err.message : String(err)})`);
    }
  }
  return {
    types: [...compiled.keys()],
    check(type, args, at, statuses, report) {
      const entry = compiled.get(type);
      if (!entry) return false;
      const own: ValidationProblem[] = [];
      entry.shape.check?.(args, { report: (path, error) => own.push({ path: at + path, error }), statuses });
      const problems = own.length || entry.validate(args) ? own : schemaProblems(entry.validate.errors ?? [], at);
      for (const p of problems) report(p.path, p.error);
      return true;
    },
  };
}

/** One problem per path (a value breaking two keywords is one problem), with Ajv's message. */
function schemaProblems(errors: ErrorObject[], at: string): ValidationProblem[] {
  const byPath = new Map<string, string>();
  for (const error of errors) {
    const { path, message } = problemOf(error, at + error.instancePath);
    if (!byPath.has(path)) byPath.set(path, message);
  }
  return [...byPath].map(([path, error]) => ({ path, error }));
}

function problemOf(error: ErrorObject, path: string): { path: string; message: string } {
  if (error.keyword === 'additionalProperties') {
    const key = (error.params as { additionalProperty: string }).additionalProperty;
    return { path: pointer(path, key), message: `unknown key "${key}"` };
  }
  return { path, message: error.message ?? 'is invalid' };
}

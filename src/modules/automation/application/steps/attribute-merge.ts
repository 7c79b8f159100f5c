import type { ValidationProblem } from '../../../../shared/errors/app-error.js';
import { unstorableNumber } from '../../../../shared/json/json-numbers.js';
import type { StepOutcome } from '../../../../extension-api/step-types.js';
import { TOO_LARGE_TO_STORE, tooLargeToStore } from '../../../cases/domain/case-storage.js';
import type { WorkflowVersion } from '../../../workflows/domain/workflow-version.js';
import type { TemplateScope } from '../../domain/templates.js';

/**
 * A step's change to the attributes: merged into the case when the result still fits the
 * workflow's schema, its numbers can be stored as written (the patch is stored as
 * JSON.stringify writes it, so `1e+300` from a template counts as sent) and the merged
 * attributes stay within CASE_STORAGE_BYTES (a template can copy a large value many times),
 * otherwise the run fails with the problems found.
 */
export function mergeIfValid(step: string, patch: Record<string, unknown>, { scope, version }: { scope: TemplateScope; version: WorkflowVersion }, note?: Record<string, unknown>): StepOutcome {
  const merged = { ...scope.attributes, ...patch };
  if (tooLargeToStore(JSON.stringify(merged))) return stepFailure(step, [{ path: '', error: `the attributes would take ${TOO_LARGE_TO_STORE}` }]);
  const tooLarge = unstorableNumber(JSON.stringify(patch));
  const problems = tooLarge ? [tooLarge] : version.attributeSchema.check(merged);
  if (problems.length) return stepFailure(step, problems);
  return { kind: 'change', attributes: patch, note };
}

export function stepFailure(step: string, problems: ValidationProblem[]): StepOutcome {
  return { kind: 'fail', error: `${step}: ${problems.map((p) => `${p.path || '/'} ${p.error}`).join('; ')}` };
}

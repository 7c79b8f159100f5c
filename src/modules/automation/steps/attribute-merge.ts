import type { StepContext, StepOutcome } from './step-handler.js';

/**
 * A step's change to the attributes: merged into the case when the result still fits the
 * workflow's schema, otherwise the run fails with the problems found.
 */
export function mergeIfValid(step: string, patch: Record<string, unknown>, { scope, version }: StepContext, note?: Record<string, unknown>): StepOutcome {
  const problems = version.attributeSchema.check({ ...scope.attributes, ...patch });
  if (problems.length) return { kind: 'fail', error: `${step}: ${problems.map((p) => `${p.path || '/'} ${p.error}`).join('; ')}` };
  return { kind: 'change', patch, note };
}

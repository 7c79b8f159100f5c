import { pointer } from '../../../shared/json/json-pointer.js';
import { isPlainObject } from '../../../shared/json/json-text.js';
import type { WorkflowDefinition } from './workflow-definition.js';

/**
 * The team each `assign` step of a parsed definition names, with the JSON Pointer of that name:
 * whether such a team exists is the organization's business, checked when the definition is
 * saved (TeamNames), not by the definition's own rules.
 */
export function assignStepTeams(definition: Pick<WorkflowDefinition, 'automations'>): { path: string; team: string }[] {
  const found: { path: string; team: string }[] = [];
  const visit = (steps: unknown, path: string): void => {
    if (!Array.isArray(steps)) return;
    steps.forEach((step, i) => {
      const at = pointer(path, i);
      if (!isPlainObject(step)) return;
      if ('if' in step) {
        visit(step.then, pointer(at, 'then'));
        visit(step.else, pointer(at, 'else'));
      } else if (isPlainObject(step.assign) && typeof step.assign.team === 'string') {
        found.push({ path: pointer(pointer(at, 'assign'), 'team'), team: step.assign.team });
      }
    });
  };
  for (const [status, steps] of Object.entries(definition.automations)) visit(steps, pointer('/automations', status));
  return found;
}

import { pointer } from '../../../shared/json/json-pointer.js';
import { isPlainObject } from '../../../shared/json/json-text.js';

/** What an SLA timer that fired is, as `on_sla` names it: a clock about to be due, or past due. */
export const ON_SLA_KINDS = ['warning', 'breached'] as const;
export type OnSlaKind = (typeof ON_SLA_KINDS)[number];

/** `"on_sla": {"warning": [steps], "breached": [steps]}` (sla.md section 3); either may be left out. */
export type OnSlaSteps = Partial<Record<OnSlaKind, Record<string, unknown>[]>>;

/**
 * Checks a definition's `on_sla`: only the two kinds, each a list of steps checked as a status's
 * (`checkSteps` reports into the same problems). Answers it as it came, or undefined when absent.
 */
export function checkOnSla(value: unknown, checkSteps: (list: unknown, path: string) => void, report: (path: string, error: string) => void): OnSlaSteps | undefined {
  if (value === undefined) return undefined;
  if (!isPlainObject(value)) {
    report('/on_sla', `must be an object of ${ON_SLA_KINDS.map((kind) => `"${kind}"`).join(' or ')} -> list of steps`);
    return undefined;
  }
  for (const [kind, list] of Object.entries(value)) {
    const path = pointer('/on_sla', kind);
    if (!(ON_SLA_KINDS as readonly string[]).includes(kind)) report(path, `unknown SLA event "${kind}"; use ${ON_SLA_KINDS.join(' or ')}`);
    else checkSteps(list, path);
  }
  return value as OnSlaSteps;
}

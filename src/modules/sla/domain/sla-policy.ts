import type { ValidationProblem } from '../../../shared/errors/app-error.js';
import { PRIORITIES, type Priority } from '../../cases/domain/case-work.js';
import { CALENDAR_NAME } from './business-calendar.js';
import { type BusinessDuration, DURATION_RULE, parseBusinessDuration } from './business-duration.js';

/** The priorities are casework's (casework.md section 2); the targets are set per priority. */
export { PRIORITIES, type Priority };
export const CLOCKS = ['first_response', 'next_response', 'resolution'] as const;
export type ClockName = (typeof CLOCKS)[number];

/** A workflow's SLA policy as the API takes and shows it. */
export interface SlaPolicySettings {
  calendar: string;
  targets: Partial<Record<Priority, Partial<Record<ClockName, string>>>>;
  pause_statuses: string[];
  /** Null: no warnings, only breaches. */
  warn_before: string | null;
}

/** A policy ready for the clocks. */
export interface SlaPolicy {
  targets: Partial<Record<Priority, Partial<Record<ClockName, BusinessDuration>>>>;
  pauseStatuses: ReadonlySet<string>;
  warnBefore: BusinessDuration | null;
}

export function slaPolicy(settings: SlaPolicySettings): SlaPolicy {
  const targets: SlaPolicy['targets'] = {};
  for (const [priority, clocks] of Object.entries(settings.targets)) {
    targets[priority as Priority] = Object.fromEntries(Object.entries(clocks).map(([clock, text]) => [clock, parseBusinessDuration(text)!]));
  }
  return {
    targets,
    pauseStatuses: new Set(settings.pause_statuses),
    warnBefore: settings.warn_before === null ? null : parseBusinessDuration(settings.warn_before)!,
  };
}

/** The targets by priority and clock in the order the API names them, whatever order they were stored in. */
export function orderedTargets(targets: SlaPolicySettings['targets']): SlaPolicySettings['targets'] {
  return Object.fromEntries(PRIORITIES.filter((p) => targets[p]).map((p) => [p, Object.fromEntries(CLOCKS.filter((c) => targets[p]![c] !== undefined).map((c) => [c, targets[p]![c]!]))]));
}

type Parsed = { ok: true; settings: SlaPolicySettings } | { ok: false; problems: ValidationProblem[] };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Checks a policy body against the workflow's declared statuses: every problem, each with the
 * JSON Pointer of its value. Whether the calendar exists is the caller's look-up.
 */
export function parseSlaPolicySettings(body: unknown, declaredStatuses: readonly string[]): Parsed {
  const problems: ValidationProblem[] = [];
  const report = (path: string, error: string) => void problems.push({ path, error });
  if (!isObject(body)) return { ok: false, problems: [{ path: '', error: 'must be a JSON object' }] };
  for (const key of Object.keys(body)) if (!['calendar', 'targets', 'pause_statuses', 'warn_before'].includes(key)) report(`/${key}`, `unsupported key "${key}"`);

  if (typeof body.calendar !== 'string' || !CALENDAR_NAME.test(body.calendar)) report('/calendar', 'must be the name of a calendar');

  const targets: SlaPolicySettings['targets'] = {};
  if (!isObject(body.targets)) report('/targets', `must be an object of priorities (${PRIORITIES.join(', ')}), each an object of clocks (${CLOCKS.join(', ')}) and their durations`);
  else {
    for (const [priority, clocks] of Object.entries(body.targets)) {
      const path = `/targets/${priority}`;
      if (!(PRIORITIES as readonly string[]).includes(priority)) report(path, `unknown priority: use ${PRIORITIES.join(', ')}`);
      else if (!isObject(clocks)) report(path, `must be an object of clocks (${CLOCKS.join(', ')}) and their durations`);
      else {
        for (const [clock, duration] of Object.entries(clocks)) {
          if (!(CLOCKS as readonly string[]).includes(clock)) report(`${path}/${clock}`, `unknown clock: use ${CLOCKS.join(', ')}`);
          else if (parseBusinessDuration(duration) === undefined) report(`${path}/${clock}`, `must be ${DURATION_RULE}`);
        }
        targets[priority as Priority] = clocks as Partial<Record<ClockName, string>>;
      }
    }
    if (Object.values(targets).every((clocks) => Object.keys(clocks ?? {}).length === 0) && problems.length === 0) report('/targets', 'give at least one target');
  }

  const pauseStatuses = body.pause_statuses ?? [];
  if (!Array.isArray(pauseStatuses)) report('/pause_statuses', 'must be a list of statuses declared on the workflow');
  else {
    pauseStatuses.forEach((status, i) => {
      if (typeof status !== 'string' || !declaredStatuses.includes(status)) report(`/pause_statuses/${i}`, `must be a status declared on the workflow (${declaredStatuses.join(', ')})`);
      else if (pauseStatuses.indexOf(status) !== i) report(`/pause_statuses/${i}`, 'is listed twice');
    });
  }

  const warnBefore = body.warn_before ?? null;
  if (warnBefore !== null && parseBusinessDuration(warnBefore) === undefined) report('/warn_before', `must be null or ${DURATION_RULE}`);

  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, settings: { calendar: body.calendar as string, targets: orderedTargets(targets), pause_statuses: pauseStatuses as string[], warn_before: warnBefore as string | null } };
}

/** What the Case aggregate's unit specs (here and in infrastructure) build their cases from. */
import { DEFAULT_STATUSES, type StatusRules } from '../../workflows/domain/status-rules.js';
import type { CaseEvent, CaseProps } from './case.js';
import type { RunProps } from './run.js';

export const FIXTURE_NOW = new Date(Date.UTC(2026, 10, 21, 20, 18, 30));

/** The default statuses and Triage; Open and Triage have runs, and no outcome is set by default. */
export const TRIAGE_RULES: StatusRules = { statuses: new Set([...DEFAULT_STATUSES, 'Triage']), defaultOutcome: null, hasRun: (status) => ['Open', 'Triage'].includes(status) };

/** Case 10, Open, of workflow 2 version 3 in organization 1. */
export function caseProps(overrides: Partial<CaseProps> = {}): CaseProps {
  return {
    id: 10, organizationId: 1, workflowId: 2, workflowVersion: 3, subject: 'Refund', status: 'Open', outcome: null,
    mode: 'live', source: 'API', attributes: '{}', priority: 'normal', assigneeId: null, teamId: null, createdAt: FIXTURE_NOW, updatedAt: FIXTURE_NOW,
    ...overrides,
  };
}

/** Run 5 of case 10, pending and due in Open. */
export function runProps(overrides: Partial<RunProps> = {}): RunProps {
  return { id: 5, caseId: 10, status: 'Open', mode: 'live', chainDepth: 0, state: 'pending', currentStep: 0, stepAttempts: 0, attempts: 0, due: true, createdAt: FIXTURE_NOW, tracedSteps: 0, retryTraced: false, ...overrides };
}

/** The events as `type` or `type:runId` (`new` for a run not stored yet), in order. */
export function briefEvents(events: readonly CaseEvent[]): string[] {
  return events.map((e) => ('run' in e ? `${e.type}:${e.run.isStored ? e.run.id : 'new'}` : e.type));
}

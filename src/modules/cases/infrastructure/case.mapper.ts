import type { CaseProps } from '../domain/case.js';
import { DEFAULT_PRIORITY } from '../domain/case-work.js';
import type { RunProps, RunState } from '../domain/run.js';
import type { OnSlaKind } from '../../workflows/domain/on-sla-steps.js';

/** A `cases` row as the repository selects it (see CASE_COLUMNS). */
export interface CaseRow {
  id: string;
  organization_id: string;
  workflow_id: string;
  workflow_version: number;
  subject: string;
  status: string;
  outcome: string | null;
  mode: CaseProps['mode'];
  source: CaseProps['source'];
  attributes: string;
  created_at: Date;
  updated_at: Date;
  /** Absent from the intake statement's rows (CASE_COLUMNS): a new case is unassigned and `normal`. */
  priority?: CaseProps['priority'];
  assignee_id?: string | null;
  team_id?: string | null;
}

export const CASE_COLUMNS = `id, organization_id, workflow_id, workflow_version, subject, status, outcome, mode, source,
  attributes::text AS attributes, created_at, updated_at`;

/**
 * CASE_COLUMNS and who works the case. The intake statement keeps to CASE_COLUMNS, so its text
 * and what it returns stay as they were; every other read of a case uses these.
 */
export const WORKED_CASE_COLUMNS = `${CASE_COLUMNS}, priority, assignee_id, team_id`;

export function toProps(row: CaseRow): CaseProps {
  return {
    id: Number(row.id),
    organizationId: Number(row.organization_id),
    workflowId: Number(row.workflow_id),
    workflowVersion: row.workflow_version,
    subject: row.subject,
    status: row.status,
    outcome: row.outcome,
    mode: row.mode,
    source: row.source,
    attributes: row.attributes,
    priority: row.priority ?? DEFAULT_PRIORITY,
    assigneeId: row.assignee_id == null ? null : Number(row.assignee_id),
    teamId: row.team_id == null ? null : Number(row.team_id),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** An unfinished run as the repository reads it (see UNFINISHED_RUNS). */
export interface RunRow {
  id: string;
  status: string;
  on_sla: OnSlaKind | null;
  mode: CaseProps['mode'];
  chain_depth: number;
  state: RunState;
  current_step: number;
  step_attempts: number;
  attempts: number;
  due: boolean;
  created_at: Date;
  traced_steps: number;
  retry_traced: boolean;
}

export function toRunProps(caseId: number, run: RunRow): RunProps {
  return {
    id: Number(run.id),
    caseId,
    status: run.status,
    ...(run.on_sla ? { onSla: run.on_sla } : {}),
    mode: run.mode,
    chainDepth: run.chain_depth,
    state: run.state,
    currentStep: run.current_step,
    stepAttempts: run.step_attempts,
    attempts: run.attempts,
    due: run.due,
    createdAt: run.created_at,
    tracedSteps: run.traced_steps,
    retryTraced: run.retry_traced,
  };
}

import { column } from '../../../shared/database/typed-statement.js';
import type { CaseProps } from '../domain/case.js';

/** The result columns of CASE_COLUMNS (case.mapper.ts), for the typed statements that select them. */
export const CASE_ROW = {
  id: column.int8,
  organization_id: column.int8,
  workflow_id: column.int8,
  workflow_version: column.int4,
  subject: column.text,
  status: column.text,
  outcome: column.nullable(column.text),
  mode: column.textOf<CaseProps['mode']>(),
  source: column.textOf<CaseProps['source']>(),
  attributes: column.text,
  created_at: column.timestamptz,
  updated_at: column.timestamptz,
};

/** The result columns of WORKED_CASE_COLUMNS. */
export const WORKED_CASE_ROW = {
  ...CASE_ROW,
  priority: column.textOf<CaseProps['priority']>(),
  assignee_id: column.nullable(column.int8),
  team_id: column.nullable(column.int8),
};

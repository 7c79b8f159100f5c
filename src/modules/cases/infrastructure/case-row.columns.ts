import { column, columnsOf } from '../../../shared/database/typed-statement.js';
import { CASES } from './persistence.js';

/** The result columns of CASE_COLUMNS (case.mapper.ts), for the typed statements that select them. */
export const CASE_ROW = {
  ...columnsOf(CASES, 'id', 'organization_id', 'workflow_id', 'workflow_version', 'subject', 'status', 'outcome', 'mode', 'source', 'created_at', 'updated_at'),
  /** As its text, for the exact JSON (the stored numbers' digits). */
  attributes: column.text,
};

/** The result columns of WORKED_CASE_COLUMNS. */
export const WORKED_CASE_ROW = { ...CASE_ROW, ...columnsOf(CASES, 'priority', 'assignee_id', 'team_id') };

import type { CaseProps } from '../domain/case.js';
import type { Assignment } from '../domain/case-work.js';

/** The columns an export (and a saved view) may name, each with its cell's text: of the case, and of who works it as people read them. */
export const CASE_COLUMNS: Record<string, (c: CaseProps, worked: Assignment) => string> = {
  id: (c) => String(c.id),
  workflow_id: (c) => String(c.workflowId),
  subject: (c) => c.subject,
  status: (c) => c.status,
  outcome: (c) => c.outcome ?? '',
  mode: (c) => c.mode,
  source_type: (c) => c.source,
  created_at: (c) => c.createdAt.toISOString(),
  updated_at: (c) => c.updatedAt.toISOString(),
  assignee: (_c, worked) => worked.assignee?.email ?? '',
  team: (_c, worked) => worked.team?.name ?? '',
  priority: (c) => c.priority,
  // The exact JSON text Postgres returned, as the API shows it.
  attributes: (c) => c.attributes,
};
/** The columns read from who works the case (CaseWorkService.assignments): a page without them costs no read of them. */
export const ASSIGNMENT_COLUMNS: readonly string[] = ['assignee', 'team'];
export const CASE_COLUMN_NAMES = Object.keys(CASE_COLUMNS);
const MAX_COLUMNS = CASE_COLUMN_NAMES.length;

/** Comma-separated known column names, each once; undefined when it is not that. */
export function columnList(value: string): string[] | undefined {
  const names = value.split(',');
  const known = names.length <= MAX_COLUMNS && names.every((name) => Object.hasOwn(CASE_COLUMNS, name)) && new Set(names).size === names.length;
  return known ? names : undefined;
}

/**
 * Text a spreadsheet would take for a formula (`=`, `+`, `-`, `@`, a tab or a carriage return
 * first) gets a leading `'`, so opening the file runs nothing (OWASP's CSV injection advice).
 */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A field is quoted when it holds a separator, a quote or a line break (RFC 4180, 2.6); its quotes are doubled (2.7). */
const NEEDS_QUOTES = /[",\r\n]/;

export function csvField(text: string): string {
  const safe = FORMULA_START.test(text) ? `'${text}` : text;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One record, CRLF-terminated (RFC 4180, 2.1). */
export function csvRecord(fields: readonly string[]): string {
  return `${fields.map(csvField).join(',')}\r\n`;
}

const NOBODY: Assignment = { assignee: null, team: null };

/**
 * The header record and a function writing a page of cases as records, for these columns;
 * `assignments` are the cases' (in their order) when `needsAssignments`, else ignored.
 */
export function caseCsv(columns: readonly string[]): { header: string; needsAssignments: boolean; rows: (cases: readonly CaseProps[], assignments: readonly Assignment[]) => string } {
  const cells = columns.map((name) => CASE_COLUMNS[name]!);
  return {
    header: csvRecord(columns),
    needsAssignments: columns.some((name) => ASSIGNMENT_COLUMNS.includes(name)),
    rows: (cases, assignments) => cases.map((c, i) => csvRecord(cells.map((cell) => cell(c, assignments[i] ?? NOBODY)))).join(''),
  };
}

import type { CaseProps } from '../domain/case.js';

/** The columns an export (and a saved view) may name, each with its cell's text. */
export const CASE_COLUMNS: Record<string, (c: CaseProps) => string> = {
  id: (c) => String(c.id),
  workflow_id: (c) => String(c.workflowId),
  subject: (c) => c.subject,
  status: (c) => c.status,
  outcome: (c) => c.outcome ?? '',
  mode: (c) => c.mode,
  source_type: (c) => c.source,
  created_at: (c) => c.createdAt.toISOString(),
  updated_at: (c) => c.updatedAt.toISOString(),
  // The exact JSON text Postgres returned, as the API shows it.
  attributes: (c) => c.attributes,
};
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

/** The header record and a function writing a page of cases as records, for these columns. */
export function caseCsv(columns: readonly string[]): { header: string; rows: (cases: readonly CaseProps[]) => string } {
  const cells = columns.map((name) => CASE_COLUMNS[name]!);
  return { header: csvRecord(columns), rows: (cases) => cases.map((c) => csvRecord(cells.map((cell) => cell(c)))).join('') };
}

/** The result of a scenario and the summary table printed at the end of the run. */
import type { Tally } from './invariants.js';

export interface ScenarioResult {
  name: string;
  sent: number;
  created: number;
  fiveXx: number;
  hung: number;
  tally?: Tally;
  recovery?: string;
  rss?: string;
  failures: string[];
  notes: string[];
  elapsedMs: number;
}

const COLUMNS: [string, (r: ScenarioResult) => string][] = [
  ['scenario', (r) => r.name],
  ['sent', (r) => String(r.sent)],
  ['201s', (r) => String(r.created)],
  ['5xx', (r) => String(r.fiveXx)],
  ['hung', (r) => String(r.hung)],
  ['cases lost', (r) => count(r.tally?.casesLost)],
  ['runs lost', (r) => count(r.tally?.runsLost)],
  ['deliveries lost', (r) => count(r.tally?.deliveriesLost)],
  ['duplicates', (r) => count(r.tally?.duplicates)],
  ['receiver dups', (r) => count(r.tally?.receiverDuplicates)],
  ['recovery', (r) => r.recovery ?? '-'],
  ['API RSS start/end', (r) => r.rss ?? '-'],
  ['time', (r) => `${Math.round(r.elapsedMs / 1000)} s`],
  ['result', (r) => (r.failures.length ? 'FAIL' : 'pass')],
];

const count = (n: number | undefined) => (n === undefined ? '?' : String(n));

export function printReport(results: ScenarioResult[]): void {
  for (const r of results) {
    console.log(`\n## ${r.name}: ${r.failures.length ? 'FAIL' : 'pass'}`);
    for (const f of r.failures) console.log(`  FAIL ${f}`);
    for (const n of r.notes) console.log(`  - ${n}`);
    for (const p of r.tally?.problems ?? []) console.log(`  ! ${p}`);
  }
  const cells = results.map((r) => COLUMNS.map(([, cell]) => cell(r)));
  const widths = COLUMNS.map(([title], i) => Math.max(title.length, ...cells.map((row) => row[i]!.length)));
  const line = (row: string[]) => `| ${row.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(`\n${line(COLUMNS.map(([title]) => title))}`);
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const row of cells) console.log(line(row));
}

export const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
export const megabytes = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

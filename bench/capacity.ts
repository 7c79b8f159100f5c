/**
 * Capacity figures, read after the automation part: rows and bytes (table + indexes + TOAST,
 * `pg_total_relation_size`) per row of each table that grows with the cases, how many rows of
 * each one automated case leaves (the automation workflow's settled cases), hence bytes per case
 * and Postgres size per million cases; and CPU per 1,000 intakes/s and per 1,000 chains/s from
 * the CPU time the automation part measured.
 */
import type { AutomationResult } from './automation.js';
import type { BenchContext } from './context.js';

/** The tables that grow with the cases, and how to count the rows one case of `c` (its ids) leaves in each. */
const GROWING_TABLES: { table: string; rowsOfCases: string }[] = [
  { table: 'cases', rowsOfCases: 'SELECT count(*) FROM c' },
  { table: 'case_events', rowsOfCases: 'SELECT count(*) FROM case_events WHERE case_id IN (SELECT id FROM c)' },
  { table: 'workflow_runs', rowsOfCases: 'SELECT count(*) FROM workflow_runs WHERE case_id IN (SELECT id FROM c)' },
  { table: 'outbox_events', rowsOfCases: 'SELECT count(*) FROM outbox_events WHERE case_id IN (SELECT id FROM c)' },
  { table: 'event_deliveries', rowsOfCases: 'SELECT count(*) FROM event_deliveries WHERE case_id IN (SELECT id FROM c)' },
  {
    table: 'delivery_attempts',
    rowsOfCases: 'SELECT count(*) FROM delivery_attempts a JOIN event_deliveries d ON d.id = a.delivery_id WHERE d.case_id IN (SELECT id FROM c)',
  },
  { table: 'idempotency_keys', rowsOfCases: 'SELECT count(*) FROM idempotency_keys WHERE case_id IN (SELECT id FROM c)' },
];

export interface TableFigures {
  table: string;
  rows: number;
  /** Table + indexes + TOAST. */
  bytes: number;
  indexBytes: number;
  /** Rows one automated case leaves in this table. */
  rowsPerCase: number;
}

export interface CapacityResult {
  /** The automation workflow's settled cases the per-case row counts are taken from. */
  sampleCases: number;
  tables: TableFigures[];
  bytesPerCase: number;
  /** CPU cores busy per 1,000 per second, from the automation part. */
  cores: { apiPer1000Intakes: number; postgresPer1000Cases: number; redisPer1000Cases: number; workerPer1000Chains: number };
}

/** Bytes (table + indexes + TOAST) of each table that grows with the cases, now. */
export async function growingTableBytes(ctx: BenchContext): Promise<Record<string, number>> {
  const { rows } = await ctx.db.query<{ table: string; bytes: string }>(
    `SELECT t AS table, pg_total_relation_size(t) AS bytes FROM unnest($1::text[]) AS t`,
    [GROWING_TABLES.map((t) => t.table)],
  );
  return Object.fromEntries(rows.map((r) => [r.table, Number(r.bytes)]));
}

export const bytesPerRow = (t: TableFigures) => (t.rows > 0 ? t.bytes / t.rows : NaN);

export async function runCapacity(ctx: BenchContext, automation: AutomationResult): Promise<CapacityResult> {
  const settled = `WITH c AS (SELECT id FROM cases WHERE workflow_id = $1 AND status IN ('Closed', 'Error'))`;
  const tables: TableFigures[] = [];
  let sampleCases = 0;
  for (const { table, rowsOfCases } of GROWING_TABLES) {
    const { rows } = await ctx.db.query<{ rows: string; bytes: string; index_bytes: string; of_cases: string; cases: string }>(
      `${settled}
       SELECT (SELECT count(*) FROM ${table}) AS rows, pg_total_relation_size('${table}') AS bytes, pg_indexes_size('${table}') AS index_bytes,
              (${rowsOfCases}) AS of_cases, (SELECT count(*) FROM c) AS cases`,
      [ctx.fixtures.automation.id],
    );
    const row = rows[0]!;
    sampleCases = Number(row.cases);
    tables.push({ table, rows: Number(row.rows), bytes: Number(row.bytes), indexBytes: Number(row.index_bytes), rowsPerCase: Number(row.of_cases) / sampleCases });
  }
  // A table the sample left no row in adds nothing (NaN bytes per row times 0 rows).
  const bytesPerCase = tables.reduce((sum, t) => sum + (t.rowsPerCase > 0 ? bytesPerRow(t) * t.rowsPerCase : 0), 0);
  // Milliseconds of CPU per item = cores busy at 1,000 items per second.
  const perItem = (cpuMs: number, items: number) => (items > 0 ? cpuMs / items : NaN);
  const { intake } = automation;
  return {
    sampleCases,
    tables,
    bytesPerCase,
    cores: {
      apiPer1000Intakes: perItem(automation.apiCpuMs, intake.ok),
      postgresPer1000Cases: perItem(intake.cpu.postgresMs, intake.ok),
      redisPer1000Cases: perItem(intake.cpu.redisMs, intake.ok),
      workerPer1000Chains: perItem(automation.workerCpuMs, automation.closedCases),
    },
  };
}

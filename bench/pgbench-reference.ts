/**
 * The database's own limit for the intake transaction: pgbench runs the service's intake
 * statement (CaseStatements.insert, with the built-in parts: the very text and parameters the case repository sends for a
 * webhook case) as a prepared statement, with the HTTP scenarios' connections, duration and
 * rounds. Whatever the service does above the database, it cannot take in cases faster than this.
 * Embedded Postgres ships no pgbench: then the reference is skipped, with a note in the report.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Case } from '../src/modules/cases/domain/case.js';
import { CaseStatementParts } from '../src/modules/cases/domain/case-statement-parts.js';
import { CaseStatements } from '../src/modules/cases/infrastructure/case-statements.js';
import { reportLogStatementPart } from '../src/modules/reporting/infrastructure/case-report-changes.sql.js';
import { outboxStatementPart } from '../src/modules/subscriptions/infrastructure/case-outbox.sql.js';
import { WorkflowVersion } from '../src/modules/workflows/domain/workflow-version.js';
import type { WorkflowDefinition } from '../src/modules/workflows/domain/workflow-definition.js';
import type { BenchContext } from './context.js';
import { median } from './http-scenarios.js';
import { webhookBodies } from './payloads.js';

export interface PgbenchRound {
  tps: number;
  latencyAvgMs: number;
}

export interface PgbenchResult {
  connections: number;
  /** The median of the rounds' transactions per second, and of their mean latencies. */
  tps: number;
  latencyAvgMs: number;
  rounds: PgbenchRound[];
}

export type PgbenchReference = { kind: 'measured'; program: string; results: PgbenchResult[] } | { kind: 'skipped'; reason: string };

function findPgbench(): string | null {
  for (const candidate of ['pgbench', ...postgresBinDirs().map((dir) => join(dir, 'pgbench'))]) {
    try {
      execFileSync(candidate, ['--version'], { stdio: 'ignore' });
      return candidate;
    } catch {
      // not this one
    }
  }
  return null;
}

function postgresBinDirs(): string[] {
  try {
    return execFileSync('sh', ['-c', 'ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -rV'], { encoding: 'utf8' }).split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

/** One parameter as text, the way node-postgres sends it. */
function asText(value: unknown): string {
  if (Array.isArray(value)) return `{${value.map((item) => `"${String(item).replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
  return String(value);
}

/**
 * The intake statement as a pgbench script: each `$n` becomes the variable `:pn` (given with
 * `-D`) cast to the type Postgres infers for `$n` (pgbench makes every occurrence a parameter of
 * its own, and one in a select list has no type otherwise); a NULL is written into the text, as a
 * pgbench variable cannot be NULL. The casts are to each parameter's own type: the plan is the same.
 */
export function pgbenchScript(statement: { text: string; values: unknown[] }, types: string[]): { script: string; defines: string[] } {
  const defines: string[] = [];
  // pgbench reads `:name` as a variable even inside a string literal (to_char's 'HH24:MI:SS'):
  // such a literal is written as the same constant in Unicode-escape form, without a colon.
  const withoutColons = statement.text.replace(/'([^']*)'/g, (literal, body: string) => (body.includes(':') ? `U&'${body.replace(/\\/g, '\\\\').replace(/:/g, '\\003A')}'` : literal));
  const script = withoutColons.replace(/\$(\d+)\b/g, (_, n: string) => {
    const i = Number(n) - 1;
    const value = statement.values[i];
    return `${value === null || value === undefined ? 'NULL' : `:p${n}`}::${types[i]}`;
  });
  statement.values.forEach((value, i) => {
    if (value !== null && value !== undefined) defines.push('-D', `p${i + 1}=${asText(value)}`);
  });
  return { script: `${script.trim()};\n`, defines };
}

/** The types Postgres infers for a statement's parameters, from a statement prepared once. */
async function parameterTypes(ctx: BenchContext, text: string): Promise<string[]> {
  const client = await ctx.db.connect();
  try {
    await client.query(`PREPARE bench_intake_types AS ${text}`);
    const { rows } = await client.query<{ types: string[] }>(`SELECT parameter_types::text[] AS types FROM pg_prepared_statements WHERE name = 'bench_intake_types'`);
    await client.query('DEALLOCATE bench_intake_types');
    return rows[0]!.types;
  } finally {
    client.release();
  }
}

/** The statement a webhook POST to the intake workflow sends, built by the service's own code. */
async function intakeStatement(ctx: BenchContext): Promise<{ text: string; values: unknown[] }> {
  const { rows } = await ctx.db.query<{ organization_id: string; version: number; definition: WorkflowDefinition }>(
    `SELECT w.organization_id, w.version, v.definition FROM workflows w JOIN workflow_versions v ON v.workflow_id = w.id AND v.version = w.version WHERE w.id = $1`,
    [ctx.fixtures.intake.id],
  );
  const row = rows[0];
  if (!row) throw new Error('the intake workflow is missing');
  const version = new WorkflowVersion(ctx.fixtures.intake.id, row.version, row.definition);
  const draft = Case.open(
    {
      organizationId: Number(row.organization_id),
      workflowId: ctx.fixtures.intake.id,
      workflowVersion: row.version,
      workflowName: row.definition.name,
      mode: 'live',
      source: 'Webhook',
      attributes: webhookBodies()[0]!,
      actor: { kind: 'webhook' },
    },
    version,
    new Date(),
  );
  const parts = new CaseStatementParts();
  // The parts of a deployment without case-event listeners (the service's default).
  for (const part of [outboxStatementPart, reportLogStatementPart]) parts.add(part);
  const { statement, values } = new CaseStatements(parts.all()).insert(draft, 'id');
  return { text: statement.text, values };
}

function runPgbench(program: string, args: string[]): Promise<PgbenchRound> {
  return new Promise((resolve, reject) => {
    execFile(program, args, { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`pgbench failed: ${stderr.trim() || err.message}`));
      const tps = /^tps = ([\d.]+)/m.exec(stdout)?.[1];
      const latency = /^latency average = ([\d.]+) ms/m.exec(stdout)?.[1];
      if (!tps || !latency) return reject(new Error(`pgbench printed no tps: ${stdout.slice(-500)}`));
      resolve({ tps: Number(tps), latencyAvgMs: Number(latency) });
    });
  });
}

export async function runPgbenchReference(ctx: BenchContext, log: (line: string) => void): Promise<PgbenchReference> {
  const program = findPgbench();
  if (!program) return { kind: 'skipped', reason: 'no pgbench on this machine (embedded Postgres ships none; it comes with the Postgres server package)' };
  const statement = await intakeStatement(ctx);
  const { script, defines } = pgbenchScript(statement, await parameterTypes(ctx, statement.text));
  const dir = mkdtempSync(join(tmpdir(), 'cis-bench-pgbench-'));
  const scriptFile = join(dir, 'intake.sql');
  writeFileSync(scriptFile, script);
  try {
    const results: PgbenchResult[] = [];
    for (const connections of ctx.config.connections) {
      const threads = Math.min(connections, cpus().length);
      const args = ['-n', '-M', 'prepared', '-c', String(connections), '-j', String(threads), '-T', String(ctx.config.durationSec), '-f', scriptFile, ...defines, ctx.serviceEnv.DATABASE_URL!];
      const rounds: PgbenchRound[] = [];
      for (let round = 0; round < ctx.config.rounds; round++) {
        const measured = await runPgbench(program, args);
        rounds.push(measured);
        log(`  pgbench c=${connections} round ${round + 1} ${measured.tps.toFixed(0).padStart(6)} tps  latency avg ${measured.latencyAvgMs.toFixed(2)} ms`);
      }
      results.push({ connections, tps: median(rounds.map((r) => r.tps)), latencyAvgMs: median(rounds.map((r) => r.latencyAvgMs)), rounds });
    }
    return { kind: 'measured', program, results };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

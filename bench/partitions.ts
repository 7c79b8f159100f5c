/**
 * Time partitions on a populated database (docs/benchmarks.md, "Time partitions"), run on its own:
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node build/bench/partitions.js [migration rows] [retention rows]
 *
 * (defaults 1,000,000 and 1,000,000; the retention figure is for 10,000,000).
 *
 * 1. Migration: a database migrated up to before TimePartitions1765200000000, its timeline and
 *    runs filled with `migration rows` each, then that migration, then OrganizationFirstKeys1765300000000,
 *    each run while a writer inserts a timeline row and a run after another; the writer's worst and
 *    99th percentile latency are the migration's locks as intake would feel them.
 * 2. Retention of the oldest month of runs, `retention rows` runs spread over twelve months:
 *    today's batched delete (PURGE_RUNS, batches of 500, on the unpartitioned table) against
 *    the partition drop (dropPartitions, as the purge pass does it), each with the writer going.
 */
import pg from 'pg';
import { PURGE_RUNS, ROLL_UP_RUN_PARTITION, RUN_PARTITION_CHECK } from '../src/modules/cases/infrastructure/run-purges.sql.js';
import { runMigrations } from '../src/shared/database/migrate.js';
import { dropPartitions } from '../src/shared/database/time-partitions.js';
import { type Transaction, TransactionRunner } from '../src/shared/database/transaction.js';

const serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const migrationRows = Number(process.argv[2] ?? 1_000_000);
const retentionRows = Number(process.argv[3] ?? 1_000_000);
const MONTHS = 12;
const PARTITIONS = 'TimePartitions1765200000000';
const ORGANIZATION_KEYS = 'OrganizationFirstKeys1765300000000';

async function createDatabase(name: string, partitioned: boolean): Promise<string> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  await migrate(url.toString(), partitioned ? undefined : PARTITIONS);
  return url.toString();
}

async function dropDatabase(name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
}

/** Every migration before `before` (all without it); how long it took. */
async function migrate(url: string, before?: string): Promise<number> {
  const started = performance.now();
  await runMigrations(url, before === undefined ? {} : { before });
  return performance.now() - started;
}

/** One case of one workflow, to hang rows on. */
async function fixtures(db: pg.Client): Promise<{ org: number; workflow: number; caseId: number }> {
  const { rows: [org] } = await db.query<{ id: number }>(`INSERT INTO organizations (name) VALUES ('bench') RETURNING id`);
  const { rows: [workflow] } = await db.query<{ id: number }>(`INSERT INTO workflows (organization_id, draft, published, version) VALUES ($1, '{}', true, 1) RETURNING id`, [org!.id]);
  await db.query(`INSERT INTO workflow_versions (workflow_id, version, definition) VALUES ($1, 1, '{}')`, [workflow!.id]);
  const { rows: [c] } = await db.query<{ id: number }>(
    `INSERT INTO cases (organization_id, workflow_id, workflow_version, subject, status, mode, source, attributes) VALUES ($1, $2, 1, 'bench', 'Open', 'live', 'API', '{}') RETURNING id`,
    [org!.id, workflow!.id],
  );
  return { org: org!.id, workflow: workflow!.id, caseId: c!.id };
}

/** `rows` finished runs (and as many timeline rows when `timeline`), created evenly over the last `months` months. */
async function fill(db: pg.Client, f: { org: number; workflow: number; caseId: number }, rows: number, months: number, timeline: boolean): Promise<number> {
  const started = performance.now();
  for (let from = 1; from <= rows; from += 200_000) {
    const to = Math.min(rows, from + 199_999);
    const at = `now() - ($4::float8 * (1 - g::float8 / $5)) * interval '30 days'`;
    await db.query(
      `INSERT INTO workflow_runs (case_id, organization_id, workflow_id, workflow_version, status, mode, state, created_at, finished_at)
       SELECT $1, $2, $3, 1, 'Open', 'live', 'succeeded', ${at}, ${at} FROM generate_series($6::int, $7::int) g`,
      [f.caseId, f.org, f.workflow, months, rows, from, to],
    );
    if (timeline) {
      await db.query(
        `INSERT INTO case_events (case_id, type, actor, data, created_at) SELECT $1, 'status_changed', 'bench', '{"from":"Open","to":"Open"}', ${at.replace('$4', '$2').replace('$5', '$3')}
         FROM generate_series($4::int, $5::int) g`,
        [f.caseId, months, rows, from, to],
      );
    }
  }
  await db.query('VACUUM ANALYZE workflow_runs');
  if (timeline) await db.query('VACUUM ANALYZE case_events');
  return performance.now() - started;
}

/** Inserts a timeline row and a run, one after the other, until stopped; each pair's latency. */
function writer(url: string, f: { org: number; workflow: number; caseId: number }) {
  const latencies: number[] = [];
  let stopping = false;
  const db = new pg.Client({ connectionString: url });
  const done = (async () => {
    await db.connect();
    while (!stopping) {
      const started = performance.now();
      await db.query('BEGIN');
      await db.query(`INSERT INTO case_events (case_id, type, actor, data) VALUES ($1, 'note', 'bench', '{}')`, [f.caseId]);
      await db.query(`INSERT INTO workflow_runs (case_id, organization_id, workflow_id, workflow_version, status, mode) VALUES ($1, $2, $3, 1, 'Open', 'live')`, [f.caseId, f.org, f.workflow]);
      await db.query('COMMIT');
      latencies.push(performance.now() - started);
    }
    await db.end();
  })();
  return {
    async stop() {
      stopping = true;
      await done;
      const sorted = [...latencies].sort((a, b) => a - b);
      return { writes: sorted.length, p50: sorted[Math.floor(sorted.length * 0.5)] ?? 0, p99: sorted[Math.floor(sorted.length * 0.99)] ?? 0, worst: sorted.at(-1) ?? 0 };
    },
  };
}

/**
 * A look-up of a run by id alone (the relay's, the engine's lease), as its plan runs it: how
 * many scans, and its planning and execution time, cold (the first) and warm (the third).
 */
async function lookUpById(db: pg.Client): Promise<string> {
  const { rows: [{ id }] } = await db.query<{ id: string }>(`SELECT id FROM workflow_runs ORDER BY created_at DESC LIMIT 1 OFFSET 1000`);
  const explain = async () =>
    (await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, COSTS OFF) UPDATE workflow_runs SET locked_until = now() WHERE id = $1`, [id])).rows.map((row) => row['QUERY PLAN']);
  const times = (plan: string[]) => plan.filter((line) => /^(Planning|Execution) Time/.test(line)).join(', ');
  const cold = await explain();
  await explain();
  const warm = await explain();
  const scans = warm.filter((line) => /Index (Only )?Scan|Seq Scan/.test(line)).length;
  return `${scans} scan(s) (${warm.filter((line) => /Seq Scan/.test(line)).length} sequential); cold ${times(cold)}; warm ${times(warm)}`;
}

const ms = (n: number) => `${n.toFixed(n < 10 ? 1 : 0)} ms`;
const latency = (w: { writes: number; p50: number; p99: number; worst: number }) => `${w.writes} writes, p50 ${ms(w.p50)}, p99 ${ms(w.p99)}, worst ${ms(w.worst)}`;

async function benchMigration(): Promise<void> {
  const name = `bench_parts_migration_${process.pid}`;
  const url = await createDatabase(name, false);
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    const f = await fixtures(db);
    const filled = await fill(db, f, migrationRows, 2, true);
    console.log(`migration: ${migrationRows} runs and ${migrationRows} timeline rows filled in ${ms(filled)}`);
    const idle = writer(url, f);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    console.log(`migration: writer before the migration: ${latency(await idle.stop())}`);
    const during = writer(url, f);
    const took = await migrate(url, ORGANIZATION_KEYS);
    console.log(`migration: TimePartitions took ${ms(took)}; writer during it: ${latency(await during.stop())}`);
    // The writer names no organization, as the previous release's instances do during a rollout.
    const keying = writer(url, f);
    const keyed = await migrate(url);
    console.log(`migration: OrganizationFirstKeys took ${ms(keyed)}; writer during it: ${latency(await keying.stop())}`);
    const { rows } = await db.query(`SELECT count(*)::int AS n FROM case_events`);
    console.log(`migration: case_events has ${rows[0].n} rows after it`);
  } finally {
    await db.end();
    await dropDatabase(name);
  }
}

/** Today's batched delete of the oldest month's runs, on the unpartitioned table. */
async function benchBatchedDelete(days: number): Promise<void> {
  const name = `bench_parts_batched_${process.pid}`;
  const url = await createDatabase(name, false);
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    const f = await fixtures(db);
    const filled = await fill(db, f, retentionRows, MONTHS, false);
    console.log(`batched delete: ${retentionRows} runs over ${MONTHS} months filled in ${ms(filled)}`);
    console.log(`batched delete: a run updated by id: ${await lookUpById(db)}`);
    const w = writer(url, f);
    const started = performance.now();
    let deleted = 0;
    let worstBatch = 0;
    for (let from: Date | null = new Date(0); from; ) {
      const batchStarted = performance.now();
      await db.query('BEGIN');
      const result: pg.QueryResult<{ runs: number; taken: number; last: Date }> = await db.query(PURGE_RUNS.text, [f.org, days, from, 500]);
      const row = result.rows[0];
      await db.query('COMMIT');
      worstBatch = Math.max(worstBatch, performance.now() - batchStarted);
      deleted += row!.runs;
      from = row!.taken === 500 ? row!.last : null;
    }
    console.log(`batched delete: ${deleted} runs in ${ms(performance.now() - started)}, worst batch ${ms(worstBatch)}; writer: ${latency(await w.stop())}`);
  } finally {
    await db.end();
    await dropDatabase(name);
  }
}

/**
 * dropPartitions' transactions on the bench's client, each timed from its DETACH to the end of
 * its COMMIT: how long the parent's ACCESS EXCLUSIVE lock was held.
 */
class TimedTransactions extends TransactionRunner {
  detachMs = 0;

  constructor(private readonly db: pg.Client) {
    super();
  }

  async run<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    let detached: number | undefined;
    // What entityManager() makes of a Transaction is only ever asked for query().
    const manager = {
      query: async (text: string, parameters?: unknown[]) => {
        if (text.includes(' DETACH PARTITION ')) detached = performance.now();
        return (await this.db.query(text, parameters)).rows;
      },
    };
    await this.db.query('BEGIN');
    try {
      const result = await work(manager as unknown as Transaction);
      await this.db.query('COMMIT');
      if (detached !== undefined) this.detachMs += performance.now() - detached;
      return result;
    } catch (err) {
      await this.db.query('ROLLBACK');
      throw err;
    }
  }

  runCheckingCommit(): never {
    throw new Error('not used by dropPartitions');
  }

  runStatementsCheckingCommit(): never {
    throw new Error('not used by dropPartitions');
  }
}

/** The same month as one partition drop. */
async function benchPartitionDrop(days: number): Promise<void> {
  const name = `bench_parts_drop_${process.pid}`;
  const url = await createDatabase(name, true);
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    // A fresh database's legacy partition is empty: months back get partitions of their own.
    await db.query(`ALTER TABLE workflow_runs DETACH PARTITION workflow_runs_legacy`);
    await db.query(`DROP TABLE workflow_runs_legacy`);
    await db.query(`SELECT ensure_month_partition('workflow_runs', 'created_at', now() - m * interval '1 month') FROM generate_series(0, $1) m`, [MONTHS + 1]);
    const f = await fixtures(db);
    const filled = await fill(db, f, retentionRows, MONTHS, false);
    console.log(`partition drop: ${retentionRows} runs over ${MONTHS} months filled in ${ms(filled)}`);
    console.log(`partition drop: a run updated by id: ${await lookUpById(db)}`);
    const w = writer(url, f);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const started = performance.now();
    const transactions = new TimedTransactions(db);
    const dropped = await dropPartitions(transactions, {
      table: 'workflow_runs',
      check: RUN_PARTITION_CHECK,
      parameters: [[f.org], [days]],
      before: new Date(Date.now() - days * 86_400_000),
      rollUp: ROLL_UP_RUN_PARTITION,
    });
    const took = performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    console.log(
      `partition drop: ${dropped} runs in ${ms(took)}, parent's ACCESS EXCLUSIVE held ${ms(transactions.detachMs)} (DETACH, DROP, COMMIT); writer: ${latency(await w.stop())}`,
    );
  } finally {
    await db.end();
    await dropDatabase(name);
  }
}

// The oldest month and a half is past retention: with runs spread evenly, about a twelfth of them.
const days = (MONTHS - 1.5) * 30;
if (migrationRows > 0) await benchMigration();
if (retentionRows > 0) {
  await benchBatchedDelete(days);
  await benchPartitionDrop(days);
}

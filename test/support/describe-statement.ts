import pg from 'pg';

/** A result column as Postgres describes a statement: its name and its type's name. */
export interface DescribedColumn {
  name: string;
  type: string;
}

interface RowDescriptionField {
  name: string;
  dataTypeID: number;
}

/**
 * Has Postgres parse `text` and describe it (the extended protocol's Parse, Describe, Sync),
 * never executing it: no parameter needs a value and nothing is written. A pg "submittable", the
 * public hook pg-cursor uses, so the client routes the backend's answers here.
 */
class DescribeStatement implements pg.Submittable {
  private fields: RowDescriptionField[] = [];
  readonly done: Promise<RowDescriptionField[]>;
  private settle!: (outcome: { fields: RowDescriptionField[] } | { error: Error }) => void;

  constructor(private readonly text: string) {
    this.done = new Promise((resolve, reject) => {
      this.settle = (outcome) => ('error' in outcome ? reject(outcome.error) : resolve(outcome.fields));
    });
  }

  submit(connection: pg.Connection): void {
    const protocol = connection as unknown as {
      parse(message: { text: string; types: number[] }): void;
      describe(message: { type: 'S' }): void;
      sync(): void;
    };
    protocol.parse({ text: this.text, types: [] });
    protocol.describe({ type: 'S' });
    protocol.sync();
  }

  handleRowDescription(message: { fields: RowDescriptionField[] }): void {
    this.fields = message.fields;
  }

  /** The client forgets this query at an error: the ReadyForQuery that follows never reaches it. */
  handleError(error: Error): void {
    this.settle({ error });
  }

  handleReadyForQuery(): void {
    this.settle({ fields: this.fields });
  }

  handleDataRow(): void {}
  handleCommandComplete(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
}

/** The result columns of `text` as Postgres describes it on `client` (none for a statement that answers no rows). */
export async function describeStatement(client: pg.Client, text: string, typeNames: Map<number, string>): Promise<DescribedColumn[]> {
  const fields = await client.query(new DescribeStatement(text)).done;
  return fields.map((f) => ({ name: f.name, type: typeNames.get(f.dataTypeID) ?? `oid ${f.dataTypeID}` }));
}

/** Type names by oid, as `pg_type` has them (`_int8` for bigint[]). */
export async function pgTypeNames(client: pg.Client): Promise<Map<number, string>> {
  const { rows } = await client.query<{ oid: number; typname: string }>('SELECT oid::int AS oid, typname FROM pg_type');
  return new Map(rows.map((r) => [r.oid, r.typname]));
}

/**
 * The tables Postgres' generic plan of `text` reads or writes (scans, and the targets of
 * INSERT, UPDATE and DELETE, in CTEs and subqueries too), without running it: prepared, then
 * EXPLAINed with null parameters under `force_generic_plan`, so no value folds a table away.
 * A plan names the partitions it reads (`workflow_runs_p202611`, `..._legacy`, `..._default`):
 * each is answered as its partitioned table, whose owner owns them all.
 */
export async function plannedTables(client: pg.Client, text: string): Promise<string[]> {
  // SAVEPOINT, SET LOCAL and the like have no plan and touch no table.
  if (!/^\s*(WITH|SELECT|INSERT|UPDATE|DELETE|VALUES|TABLE)\b/i.test(text)) return [];
  await client.query('SET plan_cache_mode = force_generic_plan');
  await client.query(`PREPARE planned_tables AS ${text}`);
  try {
    const { rows: [prepared] } = await client.query<{ parameters: number }>(
      `SELECT cardinality(parameter_types) AS parameters FROM pg_prepared_statements WHERE name = 'planned_tables'`,
    );
    const nulls = Array.from({ length: prepared!.parameters }, () => 'NULL').join(', ');
    const { rows: [plan] } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`EXPLAIN (FORMAT JSON, VERBOSE) EXECUTE planned_tables${nulls ? `(${nulls})` : ''}`);
    const tables = new Set<string>();
    const visit = (node: PlanNode): void => {
      // The system catalogs (a plan reading pg_stats scans pg_statistic) are nobody's module's.
      if (node['Relation Name'] && node.Schema !== 'pg_catalog') tables.add(node['Relation Name']);
      for (const child of node.Plans ?? []) visit(child);
    };
    visit(plan!['QUERY PLAN'][0].Plan);
    const { rows: roots } = await client.query<{ name: string }>(
      `SELECT DISTINCT coalesce(pg_partition_root(t::regclass), t::regclass)::text AS name FROM unnest($1::text[]) t`,
      [[...tables]],
    );
    return roots.map((r) => r.name).sort();
  } finally {
    await client.query('DEALLOCATE planned_tables');
    await client.query('RESET plan_cache_mode');
  }
}

interface PlanNode {
  'Relation Name'?: string;
  Schema?: string;
  Plans?: PlanNode[];
}

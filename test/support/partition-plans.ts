import type pg from 'pg';

/**
 * Plans of statements on the month-partitioned tables: a plan reads each partition, and the
 * partitions that hold no row (the months ahead, the default) are read by whatever costs
 * nothing, a Seq Scan of no page. What a test says about a plan is said of the partitions
 * with rows, through the parent's index names.
 */
export interface PartitionView {
  /** The partitions of the tables asked for that hold rows, as `client`'s transaction sees them. */
  withRows: Set<string>;
  /** Each index of a partition, by the partitioned index it belongs to. */
  parentIndex: Map<string, string>;
}

export async function partitionView(client: pg.PoolClient, tables: string[]): Promise<PartitionView> {
  const withRows = new Set<string>();
  for (const table of tables) {
    const { rows } = await client.query<{ partition: string }>(`SELECT DISTINCT tableoid::regclass::text AS partition FROM ${table}`);
    for (const row of rows) withRows.add(row.partition);
  }
  const { rows } = await client.query<{ name: string; parent: string }>(
    `SELECT c.relname AS name, p.relname AS parent FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent WHERE c.relkind = 'i'`,
  );
  return { withRows, parentIndex: new Map(rows.map((row) => [row.name, row.parent])) };
}

interface ScanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
}

/** The scans of partitions with rows, their index named as the parent's (Seq Scan when none). */
export function partitionReads<N extends ScanNode>(plan: N[], view: PartitionView): (N & { read: string })[] {
  return plan
    .filter((n) => n['Node Type'] !== 'ModifyTable' && n['Relation Name'] !== undefined && view.withRows.has(n['Relation Name']))
    .map((n) => ({ ...n, read: n['Index Name'] ? (view.parentIndex.get(n['Index Name']) ?? n['Index Name']) : n['Node Type'] }));
}

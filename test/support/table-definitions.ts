import pg from 'pg';
import type { PgType } from '../../src/shared/database/typed-statement.js';

/** A column as the migrated schema has it: its name, its type's name (`int8`, `_text`) and whether it may be null. */
export interface SchemaColumn {
  name: string;
  type: string;
  nullable: boolean;
}

/** Every table of the public schema (partitions as their parent) with its columns in their order. */
export async function schemaTables(client: pg.Client): Promise<Map<string, SchemaColumn[]>> {
  const { rows } = await client.query<{ table: string; name: string; type: string; nullable: boolean }>(
    `SELECT c.relname AS table, a.attname AS name, t.typname AS type, NOT a.attnotnull AS nullable
       FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
       JOIN pg_type t ON t.oid = a.atttypid
      WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition AND c.relname <> 'schema_migrations'
      ORDER BY c.relname, a.attnum`,
  );
  const tables = new Map<string, SchemaColumn[]>();
  for (const { table, ...column } of rows) tables.set(table, [...(tables.get(table) ?? []), column]);
  return tables;
}

/** `column`'s member for a Postgres type name (typed-statement.ts). */
const COLUMN_OF: Record<PgType, string> = {
  int2: 'column.int2',
  int4: 'column.int4',
  int8: 'column.int8',
  float8: 'column.float8',
  numeric: 'column.numeric',
  text: 'column.text',
  uuid: 'column.uuid',
  bool: 'column.bool',
  timestamptz: 'column.timestamptz',
  date: 'column.date',
  bytea: 'column.bytea',
  void: 'column.void',
  _int8: 'column.int8Array',
  _int4: 'column.int4Array',
  _text: 'column.textArray',
  xid8: 'column.xid8',
  varchar: 'column.varchar',
  tsvector: 'column.tsvector',
  jsonb: 'column.jsonb()',
  json: 'column.json()',
};

/** The `table(...)` declaration of a table as the schema has it: what a module's persistence.ts declares. */
export function tableDeclaration(name: string, columns: readonly SchemaColumn[]): string {
  const constant = name.toUpperCase();
  const lines = columns.map(({ name: column, type, nullable }) => {
    const of = COLUMN_OF[type as PgType] ?? `/* no column type for ${type} */`;
    return `  ${column}: ${nullable ? `column.nullable(${of})` : of},`;
  });
  return `export const ${constant} = table('${name}', {\n${lines.join('\n')}\n});`;
}

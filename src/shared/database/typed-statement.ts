/**
 * Hand-written SQL with the shape of its rows. A statement names each result column with its
 * Postgres type; the row type follows from them, so the rows a query answers need no cast at the
 * call. Every statement made here is listed (`declaredStatements`), and
 * `test/integration/typed-statements.integration-spec.ts` has Postgres describe each one against
 * the migrated schema: a column renamed or retyped, in the result or anywhere in the text, fails
 * `npm test`. Whether a column may be null is the author's word (Postgres does not say).
 */

/** The Postgres types results use here, with the value node-pg answers for each. */
interface PgValues {
  int2: number;
  int4: number;
  int8: string;
  float8: number;
  numeric: string;
  text: string;
  uuid: string;
  bool: boolean;
  timestamptz: Date;
  date: Date;
  bytea: Buffer;
  /** What a function returning nothing answers (pg_advisory_xact_lock): node-pg leaves it as text, empty. */
  void: string;
  _int8: string[];
  _int4: number[];
  _text: string[];
}

export type PgType = keyof PgValues | 'jsonb' | 'json';

/** A result column: its type (checked against the schema) and what it holds. */
export interface Column<Value> {
  readonly type: PgType;
  /** Never set: carries the value's type (whether it may be null too). */
  readonly value?: Value;
}

function typed<Value>(type: PgType): Column<Value> {
  return { type };
}

/** Column types by their Postgres names; `jsonb<T>()` names the JSON a column holds. */
export const column = {
  int2: typed<PgValues['int2']>('int2'),
  int4: typed<PgValues['int4']>('int4'),
  int8: typed<PgValues['int8']>('int8'),
  float8: typed<PgValues['float8']>('float8'),
  numeric: typed<PgValues['numeric']>('numeric'),
  text: typed<PgValues['text']>('text'),
  uuid: typed<PgValues['uuid']>('uuid'),
  bool: typed<PgValues['bool']>('bool'),
  timestamptz: typed<PgValues['timestamptz']>('timestamptz'),
  date: typed<PgValues['date']>('date'),
  bytea: typed<PgValues['bytea']>('bytea'),
  void: typed<PgValues['void']>('void'),
  int8Array: typed<PgValues['_int8']>('_int8'),
  int4Array: typed<PgValues['_int4']>('_int4'),
  textArray: typed<PgValues['_text']>('_text'),
  /** A text column holding only the values of `Value` (a status, a role): the author's word, as for null. */
  textOf: <Value extends string>(): Column<Value> => typed<Value>('text'),
  jsonb: <Value = unknown>(): Column<Value> => typed<Value>('jsonb'),
  json: <Value = unknown>(): Column<Value> => typed<Value>('json'),
  /** The same column where it may be null. */
  nullable: <Value>(of: Column<Value>): Column<Value | null> => ({ type: of.type }),
};

type Columns = Readonly<Record<string, Column<unknown>>>;

/** The row a statement of these columns answers. */
export type RowOf<C extends Columns> = { -readonly [K in keyof C]: C[K] extends Column<infer Value> ? Value : never };

/** Only `statement` and `statementBuilder` make a Statement: what runs SQL here takes no bare text. */
declare const made: unique symbol;

export interface Statement<Row> {
  readonly text: string;
  readonly columns: Columns;
  /** Never set: carries the row's type. */
  readonly row?: Row;
  readonly [made]: true;
}

/** A declared statement and the file whose code declared it (a `file:` URL or a path, as the stack names it). */
export interface DeclaredStatement {
  readonly statement: Statement<unknown>;
  readonly file: string;
}

const declared: DeclaredStatement[] = [];

/**
 * The file of the code that called `statement` or `statementBuilder`: the schema check holds a
 * statement to the tables of that file's module, whichever file's import first loaded it.
 */
function declaringFile(): string {
  for (const frame of (new Error().stack ?? '').split('\n').slice(1)) {
    const file = /\(?((?:file:\/\/|\/)[^():]+):\d+:\d+\)?$/.exec(frame)?.[1];
    if (file && file !== THIS_FILE && file !== THIS_PATH) return file;
  }
  return 'unknown';
}
const THIS_FILE = import.meta.url;
const THIS_PATH = new URL(import.meta.url).pathname;

function madeStatement<C extends Columns>(text: string, columns: C | undefined): Statement<RowOf<C>> {
  // The one place a Statement comes to be (see `made`).
  return { text, columns: columns ?? {} } as Statement<RowOf<C>>;
}

/** `text`, whose rows have exactly `columns` (none for a statement that answers no rows). */
export function statement<C extends Columns = Record<never, never>>(text: string, columns?: C): Statement<RowOf<C>> {
  const declaring = madeStatement(text, columns);
  declared.push({ statement: declaring, file: declaringFile() });
  return declaring;
}

/**
 * A statement whose text is built per call (a list's optional filters, a purge's batch size), with
 * the same result columns whatever its text. `shapes` are the arguments of one call for each shape
 * the text can take, every optional clause in at least one of them: each shape's text is declared
 * as a statement, so the schema check prepares them all. A clause no shape brings in is not
 * checked: adding a clause means adding a shape that has it.
 */
export function statementBuilder<Args extends readonly unknown[], C extends Columns = Record<never, never>>(
  build: (...args: Args) => string,
  columns: C | undefined,
  shapes: readonly Args[],
): (...args: Args) => Statement<RowOf<C>> {
  for (const args of shapes) statement(build(...args), columns);
  return (...args) => madeStatement(build(...args), columns);
}

/** Every statement declared by the modules loaded so far, for the schema check. */
export function declaredStatements(): readonly DeclaredStatement[] {
  return declared;
}

/** What runs SQL: a DataSource, an EntityManager or a QueryRunner of TypeORM's. */
export interface Queryable {
  query(text: string, parameters?: unknown[]): Promise<unknown>;
}

/** Runs `statement` on `on` and answers its rows, typed by the statement's columns. */
export async function rowsOf<Row>(on: Queryable, statement: Pick<Statement<Row>, 'text' | 'row'>, parameters: readonly unknown[] = []): Promise<Row[]> {
  const answer = await on.query(statement.text, [...parameters]);
  // TypeORM answers an UPDATE or DELETE with [rows, count]; a row itself is never an array.
  const rows = Array.isArray(answer) && answer.length === 2 && Array.isArray(answer[0]) && typeof answer[1] === 'number' ? (answer[0] as unknown[]) : answer;
  // The one cast: the schema check proves the columns the statement declares.
  return rows as Row[];
}

/** The first row of `statement` on `on`, if any. */
export async function firstRowOf<Row>(on: Queryable, statement: Pick<Statement<Row>, 'text' | 'row'>, parameters: readonly unknown[] = []): Promise<Row | undefined> {
  return (await rowsOf(on, statement, parameters))[0];
}

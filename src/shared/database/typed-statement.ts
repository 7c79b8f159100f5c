import { type Queryable, runStatement } from './run-statement.js';

/**
 * Hand-written SQL with the shape of its rows, owned by one module. A statement names each result
 * column with its Postgres type; the row type follows from them, so the rows a query answers need
 * no cast at the call. A module declares its tables and gets its own `statement` and runners from
 * `modulePersistence` (module-persistence.ts, in its `persistence.ts`): its statements carry the module in their type, and
 * its runners take no other module's, a compile error. Every statement and table made here is
 * listed, and `test/integration/typed-statements.integration-spec.ts` has Postgres describe each
 * statement against the migrated schema and plan it: a column renamed or retyped, in the result or
 * anywhere in the text, or a table of another module reached, fails `npm test`
 * (`table-definitions.integration-spec.ts` holds each table's row to the schema). Whether a column
 * may be null is the author's word (Postgres does not say).
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
  xid8: string;
  varchar: string;
  tsvector: string;
}

export type PgType = keyof PgValues | 'jsonb' | 'json';

/** A result column: its type (checked against the schema) and what it holds. */
export interface Column<Value> {
  readonly type: PgType;
  /** Set by `column.nullable`: a table's row is held to the schema's NOT NULL by it (a statement's result column is not). */
  readonly nullable?: true;
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
  xid8: typed<PgValues['xid8']>('xid8'),
  varchar: typed<PgValues['varchar']>('varchar'),
  tsvector: typed<PgValues['tsvector']>('tsvector'),
  /** A text column holding only the values of `Value` (a status, a role): the author's word, as for null. */
  textOf: <Value extends string>(): Column<Value> => typed<Value>('text'),
  jsonb: <Value = unknown>(): Column<Value> => typed<Value>('jsonb'),
  json: <Value = unknown>(): Column<Value> => typed<Value>('json'),
  /** The same column where it may be null. */
  nullable: <Value>(of: Column<Value>): Column<Value | null> => ({ type: of.type, nullable: true }),
};

type Columns = Readonly<Record<string, Column<unknown>>>;

/** The row a statement of these columns answers. */
export type RowOf<C extends Columns> = { -readonly [K in keyof C]: C[K] extends Column<infer Value> ? Value : never };

/** Only a module's `statement` and `statementBuilder` make a Statement: what runs SQL here takes no bare text. */
declare const made: unique symbol;
/** Never set: the module whose persistence declared a statement. */
declare const ownedBy: unique symbol;

/**
 * A statement of `Module`'s (`src/modules/teams`). A runner of another module's does not take it
 * (`ownedBy` differs); code that runs statements its callers own takes any module's (`string`).
 */
export interface Statement<Row, Module extends string = string> {
  readonly text: string;
  readonly columns: Columns;
  /** Never set: carries the row's type. */
  readonly row?: Row;
  readonly [ownedBy]?: Module;
  readonly [made]: true;
}

/** A table's row as the migrations made it: each column with its type and whether it may be null. */
export interface Table<C extends Columns = Columns> {
  readonly name: string;
  readonly columns: C;
}

/** A table whose rows a TypeORM entity of the module types (its columns are the entity's). */
export interface EntityTable {
  readonly name: string;
  readonly entity: abstract new (...args: never[]) => unknown;
}

export type OwnedTable = Table | EntityTable;

export function table<C extends Columns>(name: string, columns: C): Table<C> {
  return { name, columns };
}

/** Some of `table`'s columns, for a statement that answers them as the table holds them. */
export function columnsOf<C extends Columns, K extends keyof C & string>(table: Table<C>, ...names: K[]): Pick<C, K> {
  return Object.fromEntries(names.map((name) => [name, table.columns[name]])) as Pick<C, K>;
}

/** A table typed by `entity`, a TypeORM entity class of the table `name` (checked by the table definitions' test). */
export function entityTable(name: string, entity: EntityTable['entity']): EntityTable {
  return { name, entity };
}

/** A module's statements: the tables it owns, and what declares and runs its statements. */
export interface OwnedStatements<Module extends string> {
  readonly module: Module;
  readonly tables: readonly OwnedTable[];
  /** `text`, whose rows have exactly `columns` (none for a statement that answers no rows). */
  statement<C extends Columns = Record<never, never>>(text: string, columns?: C): Statement<RowOf<C>, Module>;
  /**
   * A statement whose text is built per call (a list's optional filters, a purge's batch size),
   * with the same result columns whatever its text. `shapes` are the arguments of one call for
   * each shape the text can take, every optional clause in at least one of them: each shape's text
   * is declared as a statement, so the schema check prepares them all. A clause no shape brings in
   * is not checked: adding a clause means adding a shape that has it.
   */
  statementBuilder<Args extends readonly unknown[], C extends Columns = Record<never, never>>(
    build: (...args: Args) => string,
    columns: C | undefined,
    shapes: readonly Args[],
  ): (...args: Args) => Statement<RowOf<C>, Module>;
  /** Runs one of the module's statements on `on` and answers its rows, typed by its columns. */
  rowsOf<Row>(on: Queryable, statement: Statement<Row, Module>, parameters?: readonly unknown[]): Promise<Row[]>;
  /** The first row of one of the module's statements on `on`, if any. */
  firstRowOf<Row>(on: Queryable, statement: Statement<Row, Module>, parameters?: readonly unknown[]): Promise<Row | undefined>;
}

/** A declared module persistence, with the file whose code declared it (a `file:` URL or a path). */
export interface DeclaredPersistence {
  readonly module: string;
  readonly tables: readonly OwnedTable[];
  readonly file: string;
}

const declaredModules: DeclaredPersistence[] = [];
const declared: { statement: Statement<unknown>; module: string }[] = [];

/** The file of the code that called `modulePersistence`: the tests hold a module's persistence to a file of that module. */
function declaringFile(): string {
  for (const frame of (new Error().stack ?? '').split('\n').slice(1)) {
    const file = /\(?((?:file:\/\/|\/)[^():]+):\d+:\d+\)?$/.exec(frame)?.[1];
    if (file && !/\/shared\/database\/(?:typed-statement|module-persistence)\.[jt]s$/.test(file)) return file;
  }
  return 'unknown';
}

function madeStatement<C extends Columns, Module extends string>(text: string, columns: C | undefined): Statement<RowOf<C>, Module> {
  // The one place a Statement comes to be (see `made`).
  return { text, columns: columns ?? {} } as Statement<RowOf<C>, Module>;
}

/**
 * The statements of `module` (`src/modules/teams`, the folder of the module), owning `tables`.
 * Called once per module, in its `persistence.ts` (through module-persistence.ts's
 * `modulePersistence`, or directly by src/shared/database, whose own statements cannot wait for
 * the prepared statements), which no other module may import (.dependency-cruiser.cjs).
 */
export function ownedStatements<const Module extends string>(module: Module, tables: readonly OwnedTable[]): OwnedStatements<Module> {
  declaredModules.push({ module, tables, file: declaringFile() });
  const statement = <C extends Columns = Record<never, never>>(text: string, columns?: C): Statement<RowOf<C>, Module> => {
    const declaring = madeStatement<C, Module>(text, columns);
    declared.push({ statement: declaring, module });
    return declaring;
  };
  return {
    module,
    tables,
    statement,
    statementBuilder: (build, columns, shapes) => {
      for (const args of shapes) statement(build(...args), columns);
      return (...args) => madeStatement(build(...args), columns);
    },
    rowsOf: (on, statement, parameters) => runStatement(on, statement, parameters),
    firstRowOf: async (on, statement, parameters) => (await runStatement(on, statement, parameters))[0],
  };
}

/** Every statement declared by the modules loaded so far, with its module, for the schema check. */
export function declaredStatements(): readonly { statement: Statement<unknown>; module: string }[] {
  return declared;
}

/** Every module persistence declared by the modules loaded so far. */
export function declaredPersistences(): readonly DeclaredPersistence[] {
  return declaredModules;
}

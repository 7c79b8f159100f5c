import type { DataSource } from 'typeorm';
import { PreparedStatements } from './prepared-statements.js';
import type { Transaction } from './transaction.js';
import { type OwnedStatements, ownedStatements, type OwnedTable, type Statement } from './typed-statement.js';

/** A module's persistence: its tables, its statements, and the runners that take its statements and no other module's. */
export interface ModulePersistence<Module extends string> extends OwnedStatements<Module> {
  /** Named prepared statements on `source`'s pool (prepared-statements.ts), for the module's statements. */
  prepared(source: DataSource): PreparedStatements<Module>;
  /** One of the module's statements as a named prepared statement inside `tx`, on its connection. */
  rowsIn<Row>(tx: Transaction, statement: Statement<Row, Module>, values: unknown[]): Promise<Row[]>;
}

/**
 * The persistence of `module` (`src/modules/teams`, the folder of the module), owning `tables`:
 * called once, in the module's `persistence.ts`, which no other module may import
 * (.dependency-cruiser.cjs). Its statements carry the module in their type, so running another
 * module's through it does not compile.
 */
export function modulePersistence<const Module extends string>(module: Module, tables: readonly OwnedTable[]): ModulePersistence<Module> {
  return {
    ...ownedStatements(module, tables),
    prepared: (source) => new PreparedStatements<Module>(source),
    rowsIn: (tx, statement, values) => PreparedStatements.rowsIn(tx, statement, values),
  };
}

import { ownedStatements } from './typed-statement.js';

/**
 * The database module owns no table: its own statements read the catalogs and settings (time
 * partitions, replicas, migrations). Statements of other modules that it runs for them (purges,
 * caps, batches) go through run-statement.ts.
 */
export const { statement, statementBuilder, rowsOf, firstRowOf } = ownedStatements('src/shared/database', []);

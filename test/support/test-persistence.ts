import { ownedStatements } from '../../src/shared/database/typed-statement.js';

/** Statements of the tests' own probe tables and settings, run through PreparedStatements and the batches as a module's would be. */
export const { statement } = ownedStatements('test', []);

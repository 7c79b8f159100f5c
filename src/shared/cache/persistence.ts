import { modulePersistence } from '../database/module-persistence.js';
import { column, table } from '../database/typed-statement.js';

/**
 * The cache module's tables, each row as the migrations made it
 * (test/integration/table-definitions.integration-spec.ts), and what declares and runs its
 * statements: no other module's persistence runs them, and no other module may import this file.
 */

export const CACHE_GENERATION = table('cache_generation', {
  only_row: column.bool,
  generation: column.int8,
});

export const CACHE_INVALIDATIONS = table('cache_invalidations', {
  generation: column.int8,
  cache: column.text,
  key: column.text,
});

export const { statement, rowsOf } = modulePersistence('src/shared/cache', [
  CACHE_GENERATION, CACHE_INVALIDATIONS,
]);

import { modulePersistence } from '../../../shared/database/module-persistence.js';

/** The health module owns no table: its statements read only what Postgres itself answers. */
export const { statement, rowsOf } = modulePersistence('src/modules/health', []);

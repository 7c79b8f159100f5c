import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from './src/shared/database/data-source-options.js';

/**
 * The TypeORM data source for migrations (`typeorm migration:run -d build/ormconfig.js`).
 * `npm run migrate` runs the same migrations through src/shared/database/migrate.ts.
 */
export default new DataSource(dataSourceOptions({ DATABASE_URL: process.env.DATABASE_URL ?? '' }));

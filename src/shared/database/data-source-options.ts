import type { DataSourceOptions } from 'typeorm';
import type { Env } from '../config/env.js';
import { InitialSchema1763750000000 } from './migrations/1763750000000-initial-schema.js';
import { EventSubscriptions1763760000000 } from './migrations/1763760000000-event-subscriptions.js';
import { RelayIndexes1763770000000 } from './migrations/1763770000000-relay-indexes.js';
import { UnfinishedRunsByCase1763780000000 } from './migrations/1763780000000-unfinished-runs-by-case.js';
import { OrganizationSecrets1763790200000 } from './migrations/1763790200000-organization-secrets.js';
import { CacheGeneration1763790600000 } from './migrations/1763790600000-cache-generation.js';
import { LeaseIndexes1763793000000 } from './migrations/1763793000000-lease-indexes.js';

/** One definition of the Postgres connection, shared by the app and `ormconfig.ts` (migrations). */
type DatabaseEnv = Pick<Env, 'DATABASE_URL'> & Partial<Pick<Env, 'DATABASE_POOL_SIZE' | 'DATABASE_CONNECT_TIMEOUT_MS'>>;

export function dataSourceOptions(env: DatabaseEnv): DataSourceOptions {
  return {
    type: 'postgres',
    url: env.DATABASE_URL,
    synchronize: false,
    migrationsRun: false,
    migrationsTableName: 'schema_migrations',
    migrations: [InitialSchema1763750000000, EventSubscriptions1763760000000, RelayIndexes1763770000000, UnfinishedRunsByCase1763780000000, OrganizationSecrets1763790200000, CacheGeneration1763790600000, LeaseIndexes1763793000000],
    logging: false,
    extra: {
      max: env.DATABASE_POOL_SIZE ?? 4,
      connectionTimeoutMillis: env.DATABASE_CONNECT_TIMEOUT_MS ?? 10_000,
      // A statement stuck behind a dead server must not hold a request forever.
      query_timeout: 30_000,
      application_name: 'case-intake',
    },
  };
}

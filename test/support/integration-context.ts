import 'reflect-metadata';
import type { Abstract, INestApplicationContext, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule } from '../../src/app.module.js';
import { type Env, validateEnv } from '../../src/shared/config/env.js';
import { RecentChanges } from '../../src/shared/database/recent-changes.js';
import { createLogger, PinoNestLogger } from '../../src/shared/logging/logger.js';
import { createMetricsRegistry } from '../../src/shared/metrics/metrics.module.js';
import { readUrlFor } from './test-infra.js';

export interface IntegrationContext {
  env: Env;
  /** A provider of the service, as the application wires it (a port gives its bound implementation). */
  get<T>(type: Type<T> | Abstract<T> | string | symbol): T;
  close(): Promise<void>;
}

/**
 * Boots the service's modules without HTTP (no Fastify, no routes) against this test run's
 * Postgres and Redis, for the integration tier: application services, repositories, the run
 * executor and guards called directly. `ROLE` defaults to `api`, so no worker takes jobs
 * behind the test's back; pass `{ ROLE: 'all' }` to have one.
 */
export async function startIntegrationContext(options: { env?: Record<string, string> } = {}): Promise<IntegrationContext> {
  const env = validateEnv({ ...process.env, ROLE: 'api', ...options.env, DATABASE_READ_URL: readUrlFor(options.env ?? {}) });
  const logger = createLogger(env.LOG_LEVEL);
  const context: INestApplicationContext = await NestFactory.createApplicationContext(AppModule.forRoot(env, logger, createMetricsRegistry()), {
    logger: new PinoNestLogger(logger),
    abortOnError: false,
  });
  // Without HTTP nothing marks an organization's changes (recent-change-marks.ts marks them per
  // request): with a replica, every organization counts as having changed lately, so a read after
  // a service's write is served once the replica replayed it, as after an HTTP write.
  if (env.DATABASE_READ_URL) context.get(RecentChanges).changedLately = () => Promise.resolve(true);
  return {
    env,
    get: (type) => context.get(type, { strict: false }),
    close: () => context.close(),
  };
}
